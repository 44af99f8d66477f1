import type { Command } from 'commander';
import { loadConfig } from '../../runtime/config.ts';
import { runDoctor, type Finding } from '../../runtime/doctor.ts';
import { createLogger } from '../../runtime/logger.ts';

const MARK: Record<Finding['status'], string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' };

export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description('check the connection, credentials, brokers, topics, consumer groups and registry the services need, and say what to fix (exit 1 when something fails)')
    .option('--json', 'print the findings as JSON')
    .option('--probe-transactions', "also check the monitor's transactional id (fences a running monitor: stop it first)")
    .action(async (options: { json?: boolean; probeTransactions?: boolean }) => {
      const config = loadConfig();
      // kafkajs's own error lines would repeat the findings; only the findings are printed.
      const logger = createLogger({ level: 'silent' });
      const findings = await runDoctor({ config, logger, probeTransactions: Boolean(options.probeTransactions) });
      if (options.json) process.stdout.write(`${JSON.stringify(findings, null, 2)}\n`);
      else {
        for (const finding of findings) {
          process.stdout.write(`${MARK[finding.status]} ${finding.check.padEnd(16)} ${finding.subject}  ${finding.code === 'OK' ? '' : `[${finding.code}] `}${finding.detail}\n`);
          if (finding.fix && finding.status !== 'ok') process.stdout.write(`     fix: ${finding.fix}\n`);
        }
      }
      if (findings.some((finding) => finding.status === 'fail')) process.exitCode = 1;
    });
}
