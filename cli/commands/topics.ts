import type { Command } from 'commander';
import { loadConfig, type SkryaConfig } from '../../runtime/config.ts';
import { applyTopicPlan, createKafka, createTopics, namingFrom, planTopicsOnCluster, type Kafka } from '../../runtime/kafka.ts';
import { createLogger } from '../../runtime/logger.ts';
import { TOPICS, TOPIC_NAMES, physicalTopic, valueSubject } from '../../topics/topics.ts';
import { describeStep, topicLayout } from '../../topics/topic-plan.ts';

async function withAdmin<T>(config: SkryaConfig, work: (admin: ReturnType<Kafka['admin']>) => Promise<T>): Promise<T> {
  const admin = createKafka(config, createLogger({ level: config.SKRYA_LOG_LEVEL }), 'skrya-topics').admin();
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.disconnect();
  }
}

export function registerTopicsCommand(program: Command): void {
  const topics = program.command('topics');
  topics
    .command('create')
    .description('create every topic of the table that does not exist yet, with the planned partitions, replication and min.insync.replicas (idempotent)')
    .action(async () => {
      const config = loadConfig();
      const naming = namingFrom(config);
      const created = await withAdmin(config, (admin) => createTopics(admin, naming, topicLayout(config)));
      for (const name of TOPIC_NAMES) {
        const topic = physicalTopic(naming, name);
        process.stdout.write(`${created.includes(topic) ? 'created' : 'exists '}  ${topic}\n`);
      }
    });
  topics
    .command('plan')
    .description('print what `topics apply` would create or change on the cluster (partitions, replication, min.insync.replicas, configs); changes nothing, never recreates a topic')
    .option('--json', 'print the steps as JSON')
    .action(async (options: { json?: boolean }) => {
      const config = loadConfig();
      const layout = topicLayout(config);
      const steps = await withAdmin(config, (admin) => planTopicsOnCluster(admin, namingFrom(config), layout));
      if (options.json) process.stdout.write(`${JSON.stringify({ layout, steps }, null, 2)}\n`);
      else for (const step of steps) process.stdout.write(`${describeStep(step)}\n`);
      // Differences the plan cannot carry out are for the operator to settle: not a clean plan.
      if (steps.some((step) => step.action === 'cannot')) process.exitCode = 1;
    });
  topics
    .command('apply')
    .description('create missing topics and set their configs as `topics plan` shows; adds partitions only with --add-partitions')
    .option('--add-partitions', 'also add the planned partitions (keys move to other partitions: drain the pipeline first, see the README)')
    .action(async (options: { addPartitions?: boolean }) => {
      const config = loadConfig();
      const layout = topicLayout(config);
      await withAdmin(config, async (admin) => {
        const steps = await planTopicsOnCluster(admin, namingFrom(config), layout);
        const done = new Set(await applyTopicPlan(admin, steps, { addPartitions: Boolean(options.addPartitions) }));
        for (const step of steps) process.stdout.write(`${done.has(step) ? 'done    ' : step.action === 'keep' ? '        ' : 'skipped '}${describeStep(step)}\n`);
        if (steps.some((step) => step.action === 'cannot' || (step.action === 'add-partitions' && !done.has(step)))) process.exitCode = 1;
      });
    });
  topics
    .command('list')
    .description('print the topic table: partitions, cleanup, key format, value subject and dead-letter topic')
    .action(() => {
      const config = loadConfig();
      const naming = namingFrom(config);
      const layout = topicLayout(config);
      for (const name of TOPIC_NAMES) {
        const spec = TOPICS[name];
        const deadLetters = spec.deadLetterTopic ? physicalTopic(naming, spec.deadLetterTopic) : '-';
        process.stdout.write(`${physicalTopic(naming, name).padEnd(20)} partitions=${layout.partitions[name]} replication=${layout.replicationFactor} min.insync.replicas=${layout.minInsyncReplicas} cleanup=${spec.config['cleanup.policy']} key=${spec.keyFormat} subject=${valueSubject(naming, name)} dlq=${deadLetters}\n`);
      }
    });
}
