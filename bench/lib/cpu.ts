import { readdirSync, readFileSync } from 'node:fs';

/** CPU seconds used so far: by the server process, by every PostgreSQL process, and by this one. */
export interface CpuSample {
  server: number;
  /** Of `server`, the seconds in the kernel (system calls: socket reads and writes). */
  serverSystem: number;
  postgres: number;
  client: number;
}

const TICKS = 100; // USER_HZ on Linux

/** utime + stime of a process, and stime alone, in seconds (null when it is gone). */
function processSeconds(pid: string): { comm: string; seconds: number; system: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    // After the command: state is field 3, utime 14 and stime 15 (1-based, of the whole line).
    return {
      comm,
      seconds: (Number(fields[11]) + Number(fields[12])) / TICKS,
      system: Number(fields[12]) / TICKS,
    };
  } catch {
    return null;
  }
}

/**
 * Where the machine's CPU went, read from /proc: the server's own process, PostgreSQL's backends
 * (all of them on this machine, which runs nothing else during a benchmark), this process. Taken
 * before and after a run, the difference per request says what a request costs each side,
 * which drifts far less from run to run than throughput on this shared machine.
 */
export function cpuSample(serverPid: number): CpuSample {
  let postgres = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const process = processSeconds(pid);
    if (process?.comm === 'postgres') postgres += process.seconds;
  }
  const usage = process.cpuUsage();
  const server = processSeconds(String(serverPid));
  return {
    server: server?.seconds ?? 0,
    serverSystem: server?.system ?? 0,
    postgres,
    client: (usage.user + usage.system) / 1e6,
  };
}

/** Milliseconds of CPU per request on each side between two samples. */
export function cpuPerRequest(before: CpuSample, after: CpuSample, requests: number): string {
  const ms = (key: keyof CpuSample) =>
    ((1000 * (after[key] - before[key])) / Math.max(1, requests)).toFixed(2);
  return `CPU per payment: server ${ms('server')} ms (in the kernel ${ms('serverSystem')} ms), PostgreSQL ${ms('postgres')} ms, load generator ${ms('client')} ms`;
}
