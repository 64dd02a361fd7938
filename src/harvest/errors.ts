// A harvest that cannot go on, with one sentence for the person running it.
export class HarvestError extends Error {}

/** The state file cannot be resumed: what it holds is of no use to this harvest. */
export class StateFileError extends HarvestError {}
