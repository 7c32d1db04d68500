import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KYC_MAX_FILE_BYTES } from '../../src/contracts/customers';
import { auditLog, kycDocuments } from '../../src/db/schema';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { multipart, SAMPLE_FILES } from '../support/multipart';
import { nextKenyanPhone, setOrganisation } from '../support/origination';

type Client = TestClient & { user: { id: string } };

describe.each(DATABASE_KINDS)('KYC documents on %s', (kind) => {
  let t: TestApp;
  let uploader: Client;
  let reviewer: Client;
  let viewer: Client;
  let uploadsDir: string;

  beforeAll(async () => {
    t = await startTestApp(kind);
    const admin = await t.signedIn('admin');
    uploader = await t.signedIn('agent');
    reviewer = await t.signedIn('agent');
    viewer = await t.signedIn('viewer');
    await setOrganisation(admin, { country: 'KE' });
    uploadsDir = path.join(t.app.ctx.config.DATA_DIR, 'uploads');
  });
  afterAll(() => t.close());

  async function newCustomer(): Promise<{ id: string; version: number }> {
    const response = await uploader.post('/api/customers', {
      firstName: 'Kyc',
      lastName: 'Person',
      phone: nextKenyanPhone(),
      monthlyIncome: 50_000,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  const upload = (
    client: TestClient,
    customerId: string,
    type: string | undefined,
    file: { name: string; data: Buffer; contentType?: string } | undefined,
  ) => {
    const body = multipart(type === undefined ? {} : { type }, file ? [{ ...file }] : []);
    return client.post(`/api/customers/${customerId}/documents`, undefined, body);
  };

  const storedFiles = (customerId: string) => {
    const dir = path.join(uploadsDir, 'kyc', customerId);
    return existsSync(dir) ? readdirSync(dir) : [];
  };

  const documentRows = (customerId: string) =>
    t.app.ctx.db.select().from(kycDocuments).where(eq(kycDocuments.customerId, customerId));

  it('stores an upload with its type detected from the content, its size and SHA-256; the customer becomes pending', async () => {
    const customer = await newCustomer();
    const response = await upload(uploader, customer.id, 'id_front', {
      name: 'front.jpg',
      data: SAMPLE_FILES.jpeg,
      contentType: 'image/jpeg',
    });
    expect(response.statusCode, response.body).toBe(201);
    const { document, kycStatus } = response.json();
    expect(kycStatus).toBe('pending');
    expect(document).toMatchObject({
      type: 'id_front',
      fileName: 'front.jpg',
      mimeType: 'image/jpeg',
      size: SAMPLE_FILES.jpeg.length,
      sha256: createHash('sha256').update(SAMPLE_FILES.jpeg).digest('hex'),
      status: 'pending',
      uploadedBy: { id: uploader.user.id },
      latest: true,
    });
    expect(storedFiles(customer.id)).toEqual([document.id]);
    const listed = (await viewer.get(`/api/customers/${customer.id}/documents`)).json();
    expect(listed).toEqual([document]);
    expect((await viewer.get(`/api/customers/${customer.id}`)).json().kyc).toMatchObject({
      status: 'pending',
      missingDocuments: ['id_front', 'selfie'],
    });
  });

  it('trusts the content, never the name or the declared type', async () => {
    const customer = await newCustomer();
    const pdfAsJpg = await upload(uploader, customer.id, 'proof_of_address', {
      name: 'bill.jpg',
      data: SAMPLE_FILES.pdf,
      contentType: 'image/jpeg',
    });
    expect(pdfAsJpg.statusCode).toBe(201);
    expect(pdfAsJpg.json().document.mimeType).toBe('application/pdf');
    const pngAsPdf = await upload(uploader, customer.id, 'selfie', {
      name: 'me.pdf',
      data: SAMPLE_FILES.png,
      contentType: 'application/pdf',
    });
    expect(pngAsPdf.json().document.mimeType).toBe('image/png');
    const before = { rows: (await documentRows(customer.id)).length, files: storedFiles(customer.id).length };
    const exe = await upload(uploader, customer.id, 'id_front', {
      name: 'photo.jpg',
      data: SAMPLE_FILES.exe,
      contentType: 'image/jpeg',
    });
    expect(exe.statusCode).toBe(415);
    expect(exe.json().message).toBe(
      'Only JPEG, PNG or PDF files are accepted; this file is none of them (whatever its name says)',
    );
    // A file that only starts like a PDF or an image is refused by a parse, with what is wrong.
    const fakePdf = await upload(uploader, customer.id, 'proof_of_address', {
      name: 'bill.pdf',
      data: Buffer.from('%PDF-1.4\n%%EOF'),
      contentType: 'application/pdf',
    });
    expect(fakePdf.statusCode).toBe(422);
    expect(fakePdf.json()).toMatchObject({
      code: 'UNREADABLE_FILE',
      message: 'The file starts like a PDF but is not a readable PDF (damaged or not a real PDF)',
      errors: [{ field: 'file', message: expect.stringContaining('not a readable PDF') }],
    });
    const fakeJpeg = await upload(uploader, customer.id, 'id_front', {
      name: 'id.jpg',
      data: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF sample jpeg body')]),
    });
    expect(fakeJpeg.statusCode).toBe(422);
    expect(fakeJpeg.json().code).toBe('UNREADABLE_FILE');
    const empty = await upload(uploader, customer.id, 'id_front', {
      name: 'empty.jpg',
      data: Buffer.alloc(0),
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('The file is empty');
    expect((await documentRows(customer.id)).length).toBe(before.rows);
    expect(storedFiles(customer.id)).toHaveLength(before.files);
  });

  it('refuses a file over 10 MB with 413 and stores nothing; exactly 10 MB is accepted', async () => {
    const customer = await newCustomer();
    const big = Buffer.alloc(KYC_MAX_FILE_BYTES + 1, 0);
    SAMPLE_FILES.jpeg.copy(big);
    const refused = await upload(uploader, customer.id, 'id_front', { name: 'big.jpg', data: big });
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toMatchObject({
      code: 'FILE_TOO_LARGE',
      message: 'The file is larger than 10 MB; upload a smaller scan or photo',
    });
    expect(await documentRows(customer.id)).toEqual([]);
    expect(storedFiles(customer.id)).toEqual([]);
    const exact = await upload(uploader, customer.id, 'id_front', {
      name: 'exact.jpg',
      data: big.subarray(0, KYC_MAX_FILE_BYTES),
    });
    expect(exact.statusCode).toBe(201);
    expect(exact.json().document.size).toBe(KYC_MAX_FILE_BYTES);
  });

  it('refuses a missing or unknown type, a missing file, two files, unknown fields and JSON, with clear messages', async () => {
    const customer = await newCustomer();
    const file = { name: 'a.jpg', data: SAMPLE_FILES.jpeg };
    const noType = await upload(uploader, customer.id, undefined, file);
    expect(noType.statusCode).toBe(400);
    expect(noType.json().errors).toEqual([{ field: 'type', message: expect.stringContaining('id_front') }]);
    expect((await upload(uploader, customer.id, 'passport', file)).statusCode).toBe(400);
    const noFile = await upload(uploader, customer.id, 'selfie', undefined);
    expect(noFile.json()).toMatchObject({ errors: [{ field: 'file', message: 'Choose a file to upload' }] });
    const two = await uploader.post(
      `/api/customers/${customer.id}/documents`,
      undefined,
      multipart({ type: 'selfie' }, [file, file]),
    );
    expect(two.statusCode).toBe(400);
    const extra = await uploader.post(
      `/api/customers/${customer.id}/documents`,
      undefined,
      multipart({ type: 'selfie', note: 'x' }, [file]),
    );
    expect(extra.json().errors).toEqual([{ field: 'note', message: 'Unknown field "note"' }]);
    const json = await uploader.post(`/api/customers/${customer.id}/documents`, { type: 'selfie' });
    expect(json.statusCode).toBe(415);
    expect(json.json().message).toContain('multipart/form-data');
    const unknown = await upload(uploader, '00000000-0000-4000-8000-000000000000', 'selfie', file);
    expect(unknown.statusCode).toBe(404);
    expect(await documentRows(customer.id)).toEqual([]);
    expect(storedFiles(customer.id)).toEqual([]);
  });

  it('serves the file inline with its detected type, nosniff and a sandbox CSP, to the roles that work KYC', async () => {
    const customer = await newCustomer();
    const { document } = (
      await upload(uploader, customer.id, 'proof_of_address', {
        name: 'bill May 2024.jpg',
        data: SAMPLE_FILES.pdf,
      })
    ).json();
    expect((await viewer.get(`/api/customers/${customer.id}/documents/${document.id}/file`)).statusCode).toBe(
      403,
    );
    const response = await uploader.get(`/api/customers/${customer.id}/documents/${document.id}/file`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toBe('sandbox');
    expect(response.headers['content-disposition']).toBe(
      `inline; filename="bill May 2024.jpg"; filename*=UTF-8''bill%20May%202024.jpg`,
    );
    expect(response.rawPayload.equals(SAMPLE_FILES.pdf)).toBe(true);
    const other = await newCustomer();
    expect((await uploader.get(`/api/customers/${other.id}/documents/${document.id}/file`)).statusCode).toBe(
      404,
    );
    expect(
      (await t.client().get(`/api/customers/${customer.id}/documents/${document.id}/file`)).statusCode,
    ).toBe(401);
    expect(
      (await upload(viewer, customer.id, 'selfie', { name: 'a.jpg', data: SAMPLE_FILES.jpeg })).statusCode,
    ).toBe(403);
  });

  it('needs a second person to review; moves KYC through pending, rejected (with the reason), pending again and verified', async () => {
    const customer = await newCustomer();
    const idFront = (
      await upload(uploader, customer.id, 'id_front', { name: 'id.jpg', data: SAMPLE_FILES.jpeg })
    ).json().document;
    const selfie = (
      await upload(uploader, customer.id, 'selfie', { name: 'me.png', data: SAMPLE_FILES.png })
    ).json().document;
    const review = (client: TestClient, documentId: string, body: unknown) =>
      client.post(`/api/customers/${customer.id}/documents/${documentId}/review`, body);

    const own = await review(uploader, idFront.id, { decision: 'verify' });
    expect(own.statusCode).toBe(422);
    expect(own.json().message).toBe('You uploaded this document; another person must review it');
    const noReason = await review(reviewer, idFront.id, { decision: 'reject' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().errors).toEqual([{ field: 'reason', message: 'Give the reason for rejecting' }]);
    expect((await review(viewer, idFront.id, { decision: 'verify' })).statusCode).toBe(403);

    const rejected = await review(reviewer, idFront.id, { decision: 'reject', reason: 'Photo is blurred' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json()).toMatchObject({
      kycStatus: 'rejected',
      document: {
        status: 'rejected',
        rejectionReason: 'Photo is blurred',
        reviewedBy: { id: reviewer.user.id },
      },
    });
    let detail = (await uploader.get(`/api/customers/${customer.id}`)).json();
    expect(detail.kyc).toMatchObject({
      status: 'rejected',
      rejectionReason: 'ID (front): Photo is blurred',
      reviewedBy: { id: reviewer.user.id },
    });
    expect((await review(reviewer, idFront.id, { decision: 'verify' })).statusCode).toBe(409);

    // A new upload after the rejection: pending again.
    const again = await upload(uploader, customer.id, 'id_front', {
      name: 'id2.jpg',
      data: SAMPLE_FILES.jpeg,
    });
    expect(again.json().kycStatus).toBe('pending');
    const documents = (await uploader.get(`/api/customers/${customer.id}/documents`)).json();
    expect(documents.map((d: { id: string; latest: boolean }) => [d.id, d.latest])).toEqual([
      [again.json().document.id, true],
      [selfie.id, true],
      [idFront.id, false],
    ]);

    expect((await review(reviewer, again.json().document.id, { decision: 'verify' })).json().kycStatus).toBe(
      'pending',
    );
    const verified = await review(reviewer, selfie.id, { decision: 'verify' });
    expect(verified.json().kycStatus).toBe('verified');
    detail = (await uploader.get(`/api/customers/${customer.id}`)).json();
    expect(detail.kyc).toMatchObject({ status: 'verified', rejectionReason: null, missingDocuments: [] });
    // The scorecard counts the verified ID and selfie.
    expect(detail.risk.factors.find((f: { factor: string }) => f.factor === 'kyc')).toMatchObject({
      points: 15,
    });

    const transitions = await t.app.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, customer.id), eq(auditLog.action, 'customer.kyc_status')))
      .orderBy(asc(auditLog.id));
    expect(transitions.map((row) => [row.before, row.after])).toEqual([
      [
        { kycStatus: 'not_started', reason: null },
        { kycStatus: 'pending', reason: null },
      ],
      [
        { kycStatus: 'pending', reason: null },
        { kycStatus: 'rejected', reason: 'ID (front): Photo is blurred' },
      ],
      [
        { kycStatus: 'rejected', reason: 'ID (front): Photo is blurred' },
        { kycStatus: 'pending', reason: null },
      ],
      [
        { kycStatus: 'pending', reason: null },
        { kycStatus: 'verified', reason: null },
      ],
    ]);
    const timeline = (await viewer.get(`/api/customers/${customer.id}/timeline`)).json();
    expect(timeline.map((e: { summary: string }) => e.summary)).toEqual(
      expect.arrayContaining([
        'ID (front) rejected: Photo is blurred',
        'KYC status pending → rejected (ID (front): Photo is blurred)',
        'KYC status pending → verified',
        'Selfie uploaded (me.png)',
      ]),
    );
  });

  it('keeps verified when an optional document awaits review, and lists by status', async () => {
    const customer = await newCustomer();
    for (const [type, data] of [
      ['id_front', SAMPLE_FILES.jpeg],
      ['selfie', SAMPLE_FILES.png],
    ] as const) {
      const { document } = (await upload(uploader, customer.id, type, { name: 'f', data })).json();
      await reviewer.post(`/api/customers/${customer.id}/documents/${document.id}/review`, {
        decision: 'verify',
      });
    }
    const optional = await upload(uploader, customer.id, 'proof_of_address', {
      name: 'bill.pdf',
      data: SAMPLE_FILES.pdf,
    });
    expect(optional.json().kycStatus).toBe('verified');
    const verified = (await viewer.get('/api/customers?kycStatus=verified')).json();
    expect(verified.items.map((c: { id: string }) => c.id)).toContain(customer.id);
  });
});
