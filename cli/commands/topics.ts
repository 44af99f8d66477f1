import type { Command } from 'commander';
import { loadConfig } from '../../runtime/config.ts';
import { createKafka, createTopics, namingFrom } from '../../runtime/kafka.ts';
import { createLogger } from '../../runtime/logger.ts';
import { TOPICS, TOPIC_NAMES, physicalTopic, valueSubject } from '../../topics/topics.ts';

export function registerTopicsCommand(program: Command): void {
  const topics = program.command('topics');
  topics
    .command('create')
    .description('create every topic of the table that does not exist yet (idempotent)')
    .action(async () => {
      const config = loadConfig();
      const naming = namingFrom(config);
      const admin = createKafka(config, createLogger({ level: config.SKRYA_LOG_LEVEL }), 'skrya-topics').admin();
      await admin.connect();
      try {
        const created = await createTopics(admin, naming);
        for (const name of TOPIC_NAMES) {
          const topic = physicalTopic(naming, name);
          process.stdout.write(`${created.includes(topic) ? 'created' : 'exists '}  ${topic}\n`);
        }
      } finally {
        await admin.disconnect();
      }
    });
  topics
    .command('list')
    .description('print the topic table: partitions, cleanup, key format, value subject and dead-letter topic')
    .action(() => {
      const naming = namingFrom(loadConfig());
      for (const name of TOPIC_NAMES) {
        const spec = TOPICS[name];
        const deadLetters = spec.deadLetterTopic ? physicalTopic(naming, spec.deadLetterTopic) : '-';
        process.stdout.write(`${physicalTopic(naming, name).padEnd(20)} partitions=${spec.partitions} cleanup=${spec.config['cleanup.policy']} key=${spec.keyFormat} subject=${valueSubject(naming, name)} dlq=${deadLetters}\n`);
      }
    });
}
