import fs from 'node:fs';
import path from 'node:path';

/** A kernel setting's value (`net.ipv4.ip_forward`), or undefined where it cannot be read. */
export function readSysctl(name: string): string | undefined {
  try {
    return fs.readFileSync(path.join('/proc/sys', ...name.split('.')), 'utf8').trim();
  } catch {
    return undefined;
  }
}

export function writeSysctl(name: string, value: string): void {
  fs.writeFileSync(path.join('/proc/sys', ...name.split('.')), value);
}
