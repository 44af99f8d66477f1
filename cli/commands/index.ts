import type { Command } from 'commander';
import { registerStackCommand } from './stack.ts';
import { registerTopicsCommand } from './topics.ts';
import { registerTopicCommand } from './topic.ts';
import { registerSourcesCommand } from './sources.ts';
import { registerRequestCommand } from './request.ts';
import { registerRunCommand } from './run.ts';
import { registerDemoCommand } from './demo.ts';
import { registerIngestCommand } from './ingest.ts';
import { registerClassifyCommand } from './classify.ts';
import { registerRouteCommand } from './route.ts';
import { registerSkillsCommand } from './skills.ts';
import { registerRankCommand } from './rank.ts';
import { registerReplayCommand } from './replay.ts';
import { registerDlqCommand } from './dlq.ts';
import { registerScreenCommand } from './screen.ts';

/** Every CLI command; each file adds one command (and its subcommands) to the program. */
export const COMMANDS: Array<(program: Command) => void> = [
  registerStackCommand,
  registerTopicsCommand,
  registerTopicCommand,
  registerSourcesCommand,
  registerRequestCommand,
  registerRunCommand,
  registerDemoCommand,
  registerIngestCommand,
  registerClassifyCommand,
  registerRouteCommand,
  registerSkillsCommand,
  registerRankCommand,
  registerReplayCommand,
  registerDlqCommand,
  registerScreenCommand,
];
