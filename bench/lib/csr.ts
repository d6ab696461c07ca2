/**
 * A real CSR for `www.example.com` (SANs `www.example.com`, `example.com`), so the following bench
 * orders through the order modal as a person would. Copied from the project's own public-domain
 * fixture `test/fixtures/csr/rsa-2048.csr` (its README says how it was made); bench never reads test/.
 */
export const BENCH_CSR = `-----BEGIN CERTIFICATE REQUEST-----
MIICmTCCAYECAQAwGjEYMBYGA1UEAwwPd3d3LmV4YW1wbGUuY29tMIIBIjANBgkq
hkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAnxza0D2d0W2D7X5D67SAR4MloGRTdmc2
zlfVV+cjVGeRYD47qGjO2OOLe4SUtBZm3yY93mzkecxX+1NEhlTcRpX+Qi74mKxI
Bw/AtZKapqEPQGELB2Kz2YtnAjpm6kNAntq7fRYMUxxlK42WIDzc0yRbc2e1b9tk
qQ6h8DzejTRWA/l9LGk5nk5/QkVIUmePpAAs0xNFnDYGim0+oWV79kZwRgbnMyGA
wdxphlqTJEsejFwnETfp+iFugUjJT3BZWWPF0MFdhrUjx3cOPWbCU/mSGGvTS4yv
2sPGecd6kbMIQUMvgCJQLI3/SigEJpCh8D7rD06As8aMsaZpZ9ZurwIDAQABoDow
OAYJKoZIhvcNAQkOMSswKTAnBgNVHREEIDAegg93d3cuZXhhbXBsZS5jb22CC2V4
YW1wbGUuY29tMA0GCSqGSIb3DQEBCwUAA4IBAQBBn4pghhmU52d7J19kJM7ZpPNr
HvUivY/CiAB30dTXvgT1HDaXxciIVpkzl1KmUbEsfz9LiwVzCS/LxRmyC4Hd3PqG
KGSlpSGEmzO98OIoNoicfraFVZG4Ay7Welxp27WOz4iKSD2GDpY9gpxpKDNhYqS0
T+xWL8MA0zwtBNCRs/j6aqDDuY+SICmLSc2rSaPj3J7MiudXaeefdHToC5/dbyVM
1+lXWSmNbb2KGn8wnaP7KWv7eTnOL6PEHQlWrb2gBSdzfAtHcLjLE/LkU0UWlk3b
ETSQxNsxaV62a5gAtANQcj7lrjHrSHiUTyegaKCrDW0A25BdyApZFlIlFKBa
-----END CERTIFICATE REQUEST-----
`;
