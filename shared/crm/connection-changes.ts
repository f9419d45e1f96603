/** Bumped by every CRM connection saved or removed in this process. */
let generation = 0;

/** Tells this process's cached connection checks that a tenant connected or disconnected. */
export function connectionsChanged(): void {
  generation += 1;
}

/** The count of connection changes made in this process so far: an answer read before the last change is stale. */
export function connectionGeneration(): number {
  return generation;
}
