/**
 * The names `skrya run` takes, apart from the modules that implement them, so a process that runs
 * only the monitor does not load the consumer stages (their models and parsers: about 190 MB).
 */
export const CONSUMER_SERVICES = ['retriever', 'scorer', 'collector', 'sink', 'sink-raw'] as const;
export type ConsumerService = (typeof CONSUMER_SERVICES)[number];
