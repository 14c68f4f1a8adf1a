/**
 * Acme Widgets draws dashboards in the browser.
 *
 * @packageDocumentation
 */

/** Options of {@link createDashboard}. */
export interface DashboardOptions {
  /**
   * Seconds between two polls of every widget's data source; 0 turns polling off.
   *
   * @defaultValue 30
   */
  refreshSeconds?: number;
  /** Called when a data source fails; the widget keeps its last good data. */
  onError?: (error: Error, widgetId: string) => void;
}

/**
 * Creates a dashboard that polls its widgets' data sources.
 *
 * @example
 * ```ts
 * const dashboard = createDashboard({ refreshSeconds: 15 });
 * dashboard.start();
 * ```
 */
export function createDashboard(options: DashboardOptions = {}): { start(): void; stop(): void } {
  let timer: ReturnType<typeof setInterval> | undefined;
  return {
    start() {
      timer = setInterval(() => options.onError?.(new Error('no sources'), 'none'), (options.refreshSeconds ?? 30) * 1000);
    },
    stop() {
      clearInterval(timer);
    },
  };
}
