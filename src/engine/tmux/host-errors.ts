// Why a host could not be polled, in ssh's own words. The transport raises these; the engine turns
// them into the host's health (unreachable, auth failed) and backs off before the next try.

/** ssh could not reach the host: refused, timed out, no route, name not resolved, connection lost. */
export class HostUnreachableError extends Error {
  constructor(
    readonly host: string,
    readonly sshMessage: string,
  ) {
    super(`${host}: ${sshMessage}`);
    this.name = 'HostUnreachableError';
  }
}

/** ssh reached the host and was turned away: key refused, host key unknown or changed. */
export class HostAuthError extends Error {
  constructor(
    readonly host: string,
    readonly sshMessage: string,
  ) {
    super(`${host}: ${sshMessage}`);
    this.name = 'HostAuthError';
  }
}
