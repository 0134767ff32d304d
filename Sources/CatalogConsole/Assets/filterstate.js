// The shared state of one filter as a screen shows it: fetched once, then kept current by a
// FilterWatch that resumes from the fetched revision, so no change falls in between.
import { call } from "./rpc.js";
import { FilterWatch } from "./watch.js";

export class SharedFilter {
  /** `onChange(state)` gets every newer state; `onStatus(status, error)` the Watch's. */
  constructor(filterId, { onChange, onStatus }) {
    this.filterId = filterId;
    this.state = null;
    this.onChange = onChange;
    this.onStatus = onStatus;
    this.watch = null;
    this.stopped = false;
  }

  /** Fetches the state, then follows it; rejects with the fetch's RpcError. The state is
   *  shown once `ready` (a promise of what the screen needs beside it) has settled. */
  async start(ready) {
    const [state] = await Promise.all([call("catalog.v1.Filters", "Get", { filterId: this.filterId }), ready]);
    if (this.stopped) return state;
    this.accept(state);
    this.watch?.stop();
    this.watch = new FilterWatch(this.filterId, {
      since: state.revision,
      onState: (next) => this.accept(next),
      onStatus: (status, error) => this.onStatus?.(status, error),
    });
    return state;
  }

  /** Takes a state the server answered or sent; an older one than shown is ignored. */
  accept(state) {
    if (this.state && state.revision <= this.state.revision) return;
    this.state = state;
    this.onChange(state);
  }

  /** Selects `optionId` (null: all); tapping the selected option again clears it. */
  async select(optionId) {
    const request = { filterId: this.filterId };
    if (optionId !== null) Object.assign(request, { optionId, toggle: true });
    this.accept(await call("catalog.v1.Filters", "Select", request));
  }

  async togglePresentation() {
    this.accept(await call("catalog.v1.Filters", "TogglePresentation", { filterId: this.filterId }));
  }

  stop() {
    this.stopped = true;
    this.watch?.stop();
  }
}
