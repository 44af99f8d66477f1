import { isSkryaError, type ErrorCode } from '../../runtime/errors.ts';

/**
 * The code of the SkryaError `run` throws, or null when it returns. Any other error is thrown on,
 * so a test expecting a code fails on it with its own message and stack.
 */
export function codeOf(run: () => unknown): ErrorCode | null {
  try {
    run();
  } catch (error) {
    if (isSkryaError(error)) return error.code;
    throw error;
  }
  return null;
}
