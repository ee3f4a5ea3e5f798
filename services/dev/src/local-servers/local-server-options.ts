/** Options every local server launcher takes. */
export interface LocalServerOptions {
  /** Directory for the server's durable data (kept on stop); default: inside the data folder. */
  readonly storeDir?: string | undefined;
  /** Listen address; default `"127.0.0.1"`. */
  readonly host?: string | undefined;
  /** Port; default (or 0): a free port. */
  readonly port?: number | undefined;
  /** Name prefix of the temporary data folder; default `"troupe-<server>-"`. */
  readonly dataDirPrefix?: string | undefined;
  /** Path of the server binary; default: {@link findServerBinary}. */
  readonly binary?: string | undefined;
  /** How long to wait for the server to be ready, in ms; default 10 000 ms. */
  readonly startTimeoutMs?: number | undefined;
  /** Grace period between SIGTERM and SIGKILL on stop, in ms; default 5 000 ms. */
  readonly stopTimeoutMs?: number | undefined;
  /**
   * Run the server in its own process group, so Ctrl-C in the terminal does not
   * stop it before its clients have drained (`troupe dev` stops it last);
   * default `false`.
   */
  readonly detached?: boolean | undefined;
}
