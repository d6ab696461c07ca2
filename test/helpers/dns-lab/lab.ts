import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDnsServers } from './install.js';
import { served, startKnot } from './knot.js';
import { ATTEMPT_MS, type Daemon, installExitHook, liveDirs, stopDaemon, waitFor } from './processes.js';
import { queryDns, quote } from './query.js';
import { recordChanges } from './records.js';
import { readDs, readSha1Ds, rsaSha1Unsupported } from './signing.js';
import { claimSubnet, HOSTS } from './subnet.js';
import type { DnsLab } from './types.js';
import { startUnbound } from './unbound.js';
import { OWNER_FILE, removeStaleWorkDirs, WORK_DIR_PREFIX } from './workdirs.js';
import {
  ALT_SERIAL,
  childZones,
  childZoneText,
  delegation,
  PRIMARY_SERIAL,
  rootZoneText,
  TTL,
  tldZoneText,
  unsignedChildren,
} from './zones.js';

/**
 * Starts a lab: claims 127.53.N.0/24, starts the zone servers, signs bottom-up (each parent carries
 * its children's DS), starts the resolver with the lab root's DS as trust anchor, and returns once the
 * resolver answers healthy.de SOA as secure (AD). Needs root (port 53) and knot + unbound installed.
 */
export async function startDnsLab(): Promise<DnsLab> {
  ensureDnsServers();
  if (process.getuid?.() !== 0) throw new Error('The DNS lab binds port 53 on loopback: it needs root.');
  installExitHook();
  removeStaleWorkDirs();
  const { prefix, claim } = await claimSubnet();
  const workDir = mkdtempSync(join(tmpdir(), WORK_DIR_PREFIX));
  liveDirs.add(workDir);
  writeFileSync(join(workDir, OWNER_FILE), String(process.pid));
  const daemons: Daemon[] = [];
  const at = (host: number) => `${prefix}.${host}`;
  const addresses: DnsLab['addresses'] = {
    root: at(HOSTS.root),
    tld: at(HOSTS.tld),
    primary: [at(HOSTS.primary1), at(HOSTS.primary2)],
    alt: at(HOSTS.alt),
  };
  const resolverAddress = at(HOSTS.resolver);
  const plainResolverAddress = at(HOSTS.plainResolver);
  const everyChild = childZones();
  // The RSA/SHA-1 zone only where this Knot can sign it (signing.ts).
  const sha1Missing = await rsaSha1Unsupported();
  const { rsaSha1, ...children } = everyChild;

  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      await Promise.all(daemons.map(stopDaemon));
      rmSync(workDir, { recursive: true, force: true });
      liveDirs.delete(workDir);
      // Only now, with the daemons gone, may another lab take the addresses.
      claim.close();
    })();
    return stopped;
  };

  try {
    // 1. The child zones: primary (on two addresses) and alt.
    const primaryDir = join(workDir, 'primary');
    // With the unsigned zones some of them delegate to (no DS: the primary serves them unsigned).
    const servedChildren = [...Object.values(children), ...(sha1Missing === undefined ? [rsaSha1] : [])];
    const primaryZones = [...servedChildren, ...unsignedChildren(everyChild)].map((zone) => ({
      domain: zone.name,
      file: join(primaryDir, `${zone.name}.zone`),
      signed: zone.signed,
      policy: zone.policy,
      text: childZoneText(zone, prefix, PRIMARY_SERIAL),
    }));
    const primary = startKnot(workDir, daemons, 'primary', [...addresses.primary], primaryZones);
    const altZones = [
      {
        domain: children.serial.name,
        file: join(workDir, 'alt', `${children.serial.name}.zone`),
        signed: false,
        text: childZoneText(children.serial, prefix, ALT_SERIAL),
      },
    ];
    const alt = startKnot(workDir, daemons, 'alt', [addresses.alt], altZones);
    await Promise.all([served(primary, primaryZones), served(alt, altZones)]);

    // 2. de.: delegations with glue, and the DS of each signed child.
    const delegations = await Promise.all(
      servedChildren.map(async (zone) =>
        delegation(
          zone,
          prefix,
          zone.ds === 'none'
            ? undefined
            : zone.ds === 'sha1'
              ? await readSha1Ds(primary, zone.name)
              : await readDs(primary, zone.name),
        ),
      ),
    );
    const tldDir = join(workDir, 'tld');
    const tldZones = [
      {
        domain: 'de.',
        file: join(tldDir, 'de.zone'),
        signed: true,
        text: tldZoneText(addresses.tld, delegations),
      },
    ];
    const tld = startKnot(workDir, daemons, 'tld', [addresses.tld], tldZones);
    await served(tld, tldZones);

    // 3. The root, with de.'s DS.
    const rootDir = join(workDir, 'root');
    const rootZones = [
      {
        domain: '.',
        file: join(rootDir, 'root.zone'),
        signed: true,
        text: rootZoneText(addresses.root, addresses.tld, await readDs(tld, 'de.')),
      },
    ];
    const root = startKnot(workDir, daemons, 'root', [addresses.root], rootZones);
    await served(root, rootZones);

    // 4. The resolvers, the lab root their only root server: one validating with the lab root's DS as
    // its only trust anchor, one that validates nothing and only iterates.
    const rootDs = await readDs(root, '.');
    startUnbound(workDir, daemons, 'unbound', resolverAddress, addresses.root, `. DS ${rootDs}`);
    startUnbound(workDir, daemons, 'unbound-plain', plainResolverAddress, addresses.root, undefined);
    await Promise.all([
      waitFor('unbound to answer healthy.de SOA as secure (AD)', daemons, async () => {
        const answer = await queryDns(resolverAddress, children.healthy.name, 'SOA', {
          timeoutMs: ATTEMPT_MS,
        });
        return answer.rcode === 'NOERROR' && answer.flags.ad && answer.answers.some((r) => r.type === 'SOA');
      }),
      waitFor('the plain unbound to answer healthy.de SOA', daemons, async () => {
        const answer = await queryDns(plainResolverAddress, children.healthy.name, 'SOA', {
          timeoutMs: ATTEMPT_MS,
        });
        return answer.rcode === 'NOERROR' && answer.answers.some((r) => r.type === 'SOA');
      }),
    ]);

    const change = recordChanges(primary, addresses.primary);
    return {
      resolver: `${resolverAddress}:53`,
      plainResolver: `${plainResolverAddress}:53`,
      trustAnchor: `. IN DS ${rootDs}`,
      addresses,
      zones: {
        healthy: children.healthy.name,
        lame: children.lame.name,
        serial: children.serial.name,
        badDs: children.badDs.name,
        expiring: children.expiring.name,
        caa: children.caa.name,
        spf: children.spf.name,
        noDmarc: children.noDmarc.name,
        nsec3: children.nsec3.name,
        rsa: children.rsa.name,
        sha1Ds: children.sha1Ds.name,
      },
      rsaSha1: sha1Missing === undefined ? { zone: rsaSha1.name } : { missing: sha1Missing },
      nameservers(zone: string): string[] {
        const name = zone.replace(/\.$/, '').toLowerCase();
        if (name === '') return ['a.root-servers.lab'];
        if (name === 'de') return ['a.nic.de'];
        if (!servedChildren.some((child) => child.name === name)) {
          throw new Error(`DNS lab: no zone ${zone}`);
        }
        return [`ns1.${name}`, `ns2.${name}`];
      },
      setRecord(zone, owner, type, rdata, ttl = TTL) {
        const upper = type.toUpperCase();
        return change(zone, owner, upper, {
          ttl,
          rdata: upper === 'TXT' && !rdata.startsWith('"') ? quote(rdata) : rdata,
        });
      },
      removeRecord(zone, owner, type) {
        return change(zone, owner, type.toUpperCase());
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
