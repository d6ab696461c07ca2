import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PUBLISH_IDS } from '../../src/features/publish/ids.js';
import { ValidationLedger } from '../../src/features/publish/validation-ledger.js';
import { certificateCard } from '../../src/features/tls/blocks.js';
import { REISSUE_IDS } from '../../src/features/tls/ids.js';
import { reissueModal } from '../../src/features/tls/modals.js';
import {
  OrganizationForm,
  ReissueExpiredError,
  type ReissueFormInput,
  TlsService,
} from '../../src/features/tls/service.js';
import {
  InternalUpstreamError,
  MalformedResponseError,
  NotFoundError,
  type TlsCertificate,
  UpstreamFailedError,
} from '../../src/registrar/index.js';
import { PRIVATE_METADATA_MAX } from '../../src/slack/modal.js';
import { addIssuedCertificate, csrFor, fixtureCsr, startWorld, WORKSPACE, type World } from './world.js';

/** A pending order's answer whose first name is its common name, with these DNS validation records. */
const pendingWith = (
  id: string,
  names: string[],
  records: Array<{ name: string; type: string; value: string }>,
): TlsCertificate => ({
  id,
  status: 'pending',
  common_name: names[0] ?? '',
  dns_names: names,
  validation: { method: 'dns-cname-token', dns_records: records },
});

const reissueForm = (csr: string): ReissueFormInput => ({ csr, dcv: 'dns-cname-token', comments: '' });

const contact = {
  organization: 'Gamma GmbH',
  first_name: 'Grete',
  last_name: 'Gamma',
  address: 'Ring 3',
  postal_code: '8010',
  city: 'Graz',
  country_code: ' at ',
  phone: '+43 316 123456',
  email: 'pki@gamma.example',
  edit_mode: '',
};

describe('TlsService (registrar sandbox, real Redis)', () => {
  let world: World;
  let service: TlsService;

  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(async () => {
    await world.close();
  });
  beforeEach(() => {
    world.sandbox.faults.clear();
    service = new TlsService(world.deps());
  });

  describe('reissue', () => {
    it('keeps the names in a draft and reissues with exactly those names', async () => {
      addIssuedCertificate(world.sandbox, 'cert-reissue-me', ['www.example.com', 'example.com']);
      const { certificate, draftId } = await service.startReissue(WORKSPACE, 'cert-reissue-me');
      expect(certificate.dns_names).toEqual(['www.example.com', 'example.com']);
      const checked = await service.prepareReissue(WORKSPACE, draftId, {
        ...reissueForm(fixtureCsr('ec-p256')),
        comments: ' new key ',
      });
      if (!checked.success) throw checked.error;
      expect(checked.data).toEqual({
        certificateId: 'cert-reissue-me',
        commonName: 'www.example.com',
        params: {
          csr: fixtureCsr('ec-p256').trim(),
          dcv_method: 'dns-cname-token',
          dns_names: ['www.example.com', 'example.com'],
          comments: 'new key',
        },
      });
      const reissued = await service.reissue(WORKSPACE, checked.data, 'U0001');
      expect(reissued).toMatchObject({ id: 'cert-reissue-me', status: 'pending' });
    });

    it('reads a reissue’s validation records where the registrar puts them, and keeps who ordered it', async () => {
      addIssuedCertificate(world.sandbox, 'cert-reissued-by-bob', ['www.example.com', 'example.com']);
      // One key space for the service and the ledger read here (each deps() call makes its own).
      const deps = world.deps();
      const ledger = new ValidationLedger(deps.redis, deps.keys);
      const service = new TlsService(deps);
      // Alice ordered it through Regdesk (what her order's answer held was kept then).
      await ledger.remember(
        WORKSPACE,
        pendingWith(
          'cert-reissued-by-bob',
          ['www.example.com', 'example.com'],
          [{ name: '_old.www.example.com.', type: 'CNAME', value: 'old.dcv.example.' }],
        ),
        { by: 'UALICE', as: 'order' },
      );
      const { draftId } = await service.startReissue(WORKSPACE, 'cert-reissued-by-bob');
      const checked = await service.prepareReissue(WORKSPACE, draftId, reissueForm(fixtureCsr('ec-p256')));
      if (!checked.success) throw checked.error;
      const reissued = await service.reissue(WORKSPACE, checked.data, 'UBOB');
      // The registrar answers a reissue with `reissue.validation` (spec addendum §4), not at the top.
      expect(reissued.validation).toBeUndefined();
      expect(reissued.reissue?.validation?.dns_records).toHaveLength(2);
      const card = JSON.stringify(certificateCard(reissued).blocks);
      expect(card).toContain(PUBLISH_IDS.publish);
      const known = await ledger.recall(WORKSPACE, 'cert-reissued-by-bob');
      expect(known?.records.map((record) => record.name)).toEqual(
        reissued.reissue?.validation?.dns_records.map((record) => record.name),
      );
      expect(known).toMatchObject({ placedBy: 'UBOB', orderedBy: 'UALICE' });
    });

    it('keeps only validation records for the certificate’s own names', async () => {
      const deps = world.deps();
      const ledger = new ValidationLedger(deps.redis, deps.keys);
      await ledger.remember(
        WORKSPACE,
        pendingWith(
          'cert-hostile-answer',
          ['*.example.com', 'example.com'],
          [
            { name: '_a.example.com.', type: 'CNAME', value: 'ok.dcv.example.' },
            { name: '_b.www.example.com.', type: 'CNAME', value: 'not.for.this.certificate.' },
            { name: 'example.com.', type: 'CNAME', value: 'the.apex.itself.' },
            { name: '_c.example.net.', type: 'CNAME', value: 'another.zone.' },
          ],
        ),
        { by: 'UALICE', as: 'order' },
      );
      const known = await ledger.recall(WORKSPACE, 'cert-hostile-answer');
      expect(known?.records.map((record) => record.name)).toEqual(['_a.example.com.']);
    });

    it('keeps a SAN list beyond 3000 characters out of private_metadata, and still sends it whole', async () => {
      const names = Array.from({ length: 60 }, (_, i) => `host-${i}-${'x'.repeat(40)}.example.com`);
      addIssuedCertificate(world.sandbox, 'cert-many-names', names);
      expect(JSON.stringify(names).length).toBeGreaterThan(PRIVATE_METADATA_MAX);
      const { certificate, draftId } = await service.startReissue(WORKSPACE, 'cert-many-names');
      const modal = reissueModal({ channel: 'C0001', draft: draftId }, certificate);
      expect(modal.private_metadata?.length).toBeLessThan(200);
      const checked = await service.prepareReissue(
        WORKSPACE,
        draftId,
        reissueForm(csrFor(names[0] ?? '', names)),
      );
      if (!checked.success) throw checked.error;
      expect(checked.data.params.dns_names).toEqual(names);
      await expect(service.reissue(WORKSPACE, checked.data, 'U0001')).resolves.toMatchObject({
        status: 'pending',
      });
    });

    it('refuses a CSR that does not fit the certificate, on the CSR field', async () => {
      const { draftId } = await service.startReissue(WORKSPACE, 'cert-issued-old'); // api.example.com
      const checked = await service.prepareReissue(WORKSPACE, draftId, reissueForm(fixtureCsr('rsa-2048')));
      expect(checked.success).toBe(false);
      expect(checked.error?.issues).toEqual([
        expect.objectContaining({
          path: ['csr'],
          message: expect.stringMatching(/^The CSR does not fit this certificate: .*www\.example\.com/),
        }),
      ]);
    });

    it('answers an unknown, malformed or other workspace’s draft with "run it again"', async () => {
      const { draftId } = await service.startReissue(WORKSPACE, 'cert-issued-recent');
      const form = reissueForm(fixtureCsr('rsa-2048'));
      for (const [workspace, id] of [
        [WORKSPACE, 'f'.repeat(24)],
        [WORKSPACE, '../../vault'],
        [{ teamId: 'T0OTHER' }, draftId],
      ] as const) {
        await expect(service.prepareReissue(workspace, id, form)).rejects.toBeInstanceOf(ReissueExpiredError);
      }
    });

    it('a registrar 500 on reissue is an error the user can read; a 404 on opening too', async () => {
      const { draftId } = await service.startReissue(WORKSPACE, 'cert-issued-recent');
      const checked = await service.prepareReissue(WORKSPACE, draftId, reissueForm(fixtureCsr('rsa-2048')));
      if (!checked.success) throw checked.error;
      world.sandbox.faults.inject('tls.reissue', { status: 500, times: 1 });
      const failure = await service
        .reissue(WORKSPACE, checked.data, 'U0001')
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(InternalUpstreamError);
      expect((failure as InternalUpstreamError).userMessage).toContain('Try again in a few minutes');
      await expect(service.startReissue(WORKSPACE, 'cert-nope')).rejects.toBeInstanceOf(NotFoundError);
    });
  });

  describe('organizations', () => {
    it('creates one from a valid form, the country code trimmed and upper-cased', async () => {
      const form = OrganizationForm.parse(contact);
      expect(form.country_code).toBe('AT');
      expect(form.edit_mode).toBeUndefined();
      const org = await service.saveOrganization(WORKSPACE, undefined, form);
      expect(org).toMatchObject({ organization: 'Gamma GmbH', country_code: 'AT' });
      expect(world.sandbox.state.organizations.get(org.id)?.city).toBe('Graz');
    });

    it('updates one, sending an edit mode only when one of the two was picked', async () => {
      const picked = OrganizationForm.parse({ ...contact, city: 'Potsdam', edit_mode: 'create_replacement' });
      expect(picked.edit_mode).toBe('create_replacement');
      expect(
        OrganizationForm.parse({ ...contact, edit_mode: 'delete_everything' }).edit_mode,
      ).toBeUndefined();
      await service.saveOrganization(WORKSPACE, 'org-acme', picked);
      expect(world.sandbox.state.organizations.get('org-acme')?.city).toBe('Potsdam');
    });

    it('names each malformed field', () => {
      const result = OrganizationForm.safeParse({
        ...contact,
        country_code: 'XX',
        email: 'x',
        phone: 'call me',
        city: ' ',
      });
      expect(result.success).toBe(false);
      const byField = Object.fromEntries(
        result.error?.issues.map((i) => [String(i.path[0]), i.message]) ?? [],
      );
      expect(byField).toEqual({
        country_code: 'A two-letter ISO 3166-1 country code, e.g. DE or AT.',
        email: 'An e-mail address.',
        phone: 'A phone number, e.g. +49 30 1234567.',
        city: 'Required.',
      });
    });

    it('shows one as a card; an unknown id is a 404 and a 502 on create is reported', async () => {
      const card = await service.showOrganization(WORKSPACE, 'org-acme');
      expect(card.text).toContain('Organization');
      expect(JSON.stringify(card.blocks)).toContain('org-acme');
      await expect(service.organization(WORKSPACE, 'org-nope')).rejects.toBeInstanceOf(NotFoundError);
      world.sandbox.faults.inject('org.create', { status: 502 });
      await expect(
        service.saveOrganization(WORKSPACE, undefined, OrganizationForm.parse(contact)),
      ).rejects.toBeInstanceOf(UpstreamFailedError);
    });
  });

  describe('show and download', () => {
    it('shows a certificate as a card offering Renew and Reissue', async () => {
      const card = await service.showCertificate(WORKSPACE, 'cert-issued-recent');
      expect(card.text).toBe('Certificate cert-issued-recent: www.example.com (issued)');
      const blocks = JSON.stringify(card.blocks);
      expect(blocks).toContain(REISSUE_IDS.renewButton);
      expect(blocks).toContain(REISSUE_IDS.reissueButton);
    });

    it('downloads PEM and ZIP of an issued certificate; a pending one is "not issued"', async () => {
      const pem = await service.download(WORKSPACE, 'cert-issued-recent', 'pem');
      expect(pem.kind === 'file' && pem.content.toString('utf8')).toContain('-----BEGIN CERTIFICATE-----');
      const zip = await service.download(WORKSPACE, 'cert-issued-recent', 'zip');
      expect(zip.kind === 'file' && zip.content.subarray(0, 2).toString('latin1')).toBe('PK');
      expect(await service.download(WORKSPACE, 'cert-pending', 'pem')).toEqual({ kind: 'not-issued' });
    });

    it('a lasting registrar 500 or a malformed answer is an error, not a card or a file', async () => {
      world.sandbox.faults.inject('tls.download', { status: 500 });
      await expect(service.download(WORKSPACE, 'cert-issued-recent', 'pem')).rejects.toBeInstanceOf(
        InternalUpstreamError,
      );
      world.sandbox.faults.inject('tls.get', { malformed: true });
      await expect(service.showCertificate(WORKSPACE, 'cert-issued-recent')).rejects.toBeInstanceOf(
        MalformedResponseError,
      );
    });
  });
});
