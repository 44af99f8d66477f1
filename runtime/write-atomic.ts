import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Writes a file so readers see the old bytes or the new bytes, never a mix: a temp file in the
 * same folder, fsynced, then renamed over the target. Returns false when the bytes were already there.
 */
export function writeFileAtomic(file: string, content: string): boolean {
  try {
    if (fs.readFileSync(file, 'utf8') === content) return false;
  } catch {
    // No current file: write it.
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = fs.openSync(temp, 'w');
    try {
      fs.writeFileSync(handle, content);
      fs.fsyncSync(handle);
    } finally {
      fs.closeSync(handle);
    }
    fs.renameSync(temp, file);
  } catch (error) {
    // A failed write (disk full, target is a folder) must not leave its temp file behind.
    fs.rmSync(temp, { force: true });
    throw error;
  }
  return true;
}
