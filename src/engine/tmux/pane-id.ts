// Pane ids are `%` followed by digits; anything else never reaches tmux.

const PANE_ID = /^%\d{1,9}$/;

export function isPaneId(value: string): boolean {
  return PANE_ID.test(value);
}

export class InvalidPaneIdError extends Error {
  constructor(value: string) {
    super(`not a tmux pane id: ${JSON.stringify(value)} (expected % followed by digits, e.g. %3)`);
    this.name = 'InvalidPaneIdError';
  }
}

export function assertPaneId(value: string): string {
  if (!isPaneId(value)) throw new InvalidPaneIdError(value);
  return value;
}
