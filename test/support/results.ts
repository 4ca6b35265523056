// Small helpers tests share to read results: every row of a keyset-paged stream, and the error code a call ends with.

/** Reads pages from position 0 until an empty page (a short page is not the end). */
export async function readAllPages<Row extends { sequence: number }>(
  read: (after: number) => Promise<{ rows: Row[]; nextAfter: number }>,
): Promise<Row[]> {
  const rows: Row[] = [];
  for (let after = 0; ; ) {
    const page = await read(after);
    if (page.rows.length === 0) return rows;
    rows.push(...page.rows);
    after = page.nextAfter;
  }
}

/** The error code a promise rejects with, or "no error". */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'no error';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}
