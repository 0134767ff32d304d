// Follows one filter's shared state by Filters/Watch: the state of each snapshot and change,
// and on a lost connection a resume from the last revision seen, so no change is missed.
import { stream } from "./rpc.js";

/** Watches `filterId`, from revision `since` when given. `onState(state)` gets each new state; `onStatus(status, error)` gets
 *  "connecting", "live", "reconnecting" (with the error) or "failed" (an error a retry cannot
 *  mend: unknown filter, no permission). */
export class FilterWatch {
  constructor(filterId, { since, onState, onStatus }) {
    this.filterId = filterId;
    this.onState = onState;
    this.onStatus = onStatus;
    this.revision = since;
    this.controller = new AbortController();
    this.run();
  }

  stop() {
    this.controller.abort();
  }

  async run() {
    let delay = 250;
    this.onStatus("connecting");
    while (!this.controller.signal.aborted) {
      const request = { filterId: this.filterId, heartbeatSeconds: 5 };
      if (this.revision !== undefined) request.sinceRevision = this.revision;
      try {
        await stream("catalog.v1.Filters", "Watch", request, (event) => {
          if (event.kind === "synced") this.onStatus("live");
          if (event.state) {
            this.revision = event.revision;
            this.onState(event.state);
          }
          delay = 250;
        }, { signal: this.controller.signal });
        if (this.controller.signal.aborted) return;
        this.onStatus("reconnecting");
      } catch (error) {
        if (this.controller.signal.aborted) return;
        if (["not_found", "permission_denied", "unauthenticated", "invalid_argument"].includes(error.code)) {
          this.onStatus("failed", error);
          return;
        }
        if (error.code === "out_of_range") this.revision = undefined;
        this.onStatus("reconnecting", error);
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 2000);
    }
  }
}
