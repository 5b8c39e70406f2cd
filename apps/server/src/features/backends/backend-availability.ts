/** Who wants to hear that a backend may take work again (the job queues, to hand out waiting jobs). */
export class BackendAvailability {
  private readonly listeners = new Set<() => void>();

  /**
   * Calls `listener` whenever a backend may take work again (became healthy, was added, finished a job); answers
   * the function that stops the calls.
   */
  onAvailable(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  available(): void {
    for (const listener of this.listeners) listener();
  }
}
