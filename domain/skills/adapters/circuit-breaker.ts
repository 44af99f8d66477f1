import { SkryaError } from '../../../runtime/errors.ts';
import type { Clock } from '../types.ts';

export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit. */
  failureThreshold: number;
  /** How long an open circuit refuses calls before letting one probe through. */
  coolDownMs: number;
}

export const DEFAULT_CIRCUIT_BREAKER: CircuitBreakerOptions = { failureThreshold: 5, coolDownMs: 30_000 };

export type CircuitState = 'closed' | 'open' | 'half-open';

interface Circuit {
  state: CircuitState;
  consecutiveFailures: number;
  openedAt: number;
  probeInFlight: boolean;
}

/** One circuit per skill: a provider that keeps failing stops being called for a while. */
export interface CircuitBreaker {
  /** Throws CIRCUIT_OPEN when the call must not go out; otherwise admits it (maybe as the half-open probe). */
  admit(skill: string): void;
  recordSuccess(skill: string): void;
  recordFailure(skill: string): void;
  /** The admitted call ended without a verdict on the provider (cancelled): counts neither way, frees a half-open probe. */
  release(skill: string): void;
  state(skill: string): CircuitState;
}

export function createCircuitBreaker(options: CircuitBreakerOptions, clock: Clock): CircuitBreaker {
  const circuits = new Map<string, Circuit>();

  const circuitOf = (skill: string): Circuit => {
    let circuit = circuits.get(skill);
    if (!circuit) {
      circuit = { state: 'closed', consecutiveFailures: 0, openedAt: 0, probeInFlight: false };
      circuits.set(skill, circuit);
    }
    return circuit;
  };

  const refresh = (circuit: Circuit): void => {
    if (circuit.state === 'open' && clock.now().getTime() - circuit.openedAt >= options.coolDownMs) {
      circuit.state = 'half-open';
      circuit.probeInFlight = false;
    }
  };

  return {
    admit(skill) {
      const circuit = circuitOf(skill);
      refresh(circuit);
      if (circuit.state === 'closed') return;
      if (circuit.state === 'half-open' && !circuit.probeInFlight) {
        circuit.probeInFlight = true;
        return;
      }
      const retryInMs = Math.max(0, options.coolDownMs - (clock.now().getTime() - circuit.openedAt));
      throw new SkryaError('CIRCUIT_OPEN', `${skill}: circuit open after ${circuit.consecutiveFailures} consecutive failures; next probe in ${retryInMs} ms`, {
        details: { skill, retryInMs, state: circuit.state },
      });
    },
    recordSuccess(skill) {
      const circuit = circuitOf(skill);
      circuit.state = 'closed';
      circuit.consecutiveFailures = 0;
      circuit.probeInFlight = false;
    },
    recordFailure(skill) {
      const circuit = circuitOf(skill);
      circuit.consecutiveFailures += 1;
      circuit.probeInFlight = false;
      if (circuit.state === 'half-open' || circuit.consecutiveFailures >= options.failureThreshold) {
        circuit.state = 'open';
        circuit.openedAt = clock.now().getTime();
      }
    },
    release(skill) {
      circuitOf(skill).probeInFlight = false;
    },
    state(skill) {
      const circuit = circuitOf(skill);
      refresh(circuit);
      return circuit.state;
    },
  };
}
