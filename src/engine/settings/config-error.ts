// The error for a setting a user has to change: its message names the setting and what is wrong.

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
