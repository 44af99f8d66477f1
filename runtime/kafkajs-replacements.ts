/**
 * kafkajs with Skrya's replacements of its internals in place: imported by every module that
 * imports kafkajs, before kafkajs. kafkajs 2.2.4 is no longer maintained, so its faults are
 * corrected here rather than upstream.
 */
import './kafkajs-read-committed.ts';
import './kafkajs-partitioning.ts';
import './kafkajs-record-encoding.ts';
import './kafkajs-record-decoding.ts';
import './kafkajs-request-encoding.ts';
