/**
 * Records the window and document listeners that the chat code adds while its modules are
 * evaluated and it first mounts (SWR, inside the AI SDK's hook, subscribes its module-wide cache
 * to focus and online/offline; React DOM adds `selectionchange`; neither ever lets go), so
 * destroy() can remove them. Imported first by chat.tsx.
 */
type Recorded = [
  target: EventTarget,
  type: string,
  listener: EventListenerOrEventListenerObject,
  options?: boolean | AddEventListenerOptions,
];

const recorded: Recorded[] = [];
const targets: EventTarget[] = [window, document];
const originals = targets.map((target) => target.addEventListener);

targets.forEach((target) => {
  target.addEventListener = function (
    this: EventTarget,
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ) {
    if (listener) recorded.push([this, type, listener, options]);
    return originals[targets.indexOf(target)]!.call(this, type, listener, options);
  };
});

/** Ends recording: called once the chat code's modules are evaluated and React has mounted. */
export function stopRecording(): void {
  targets.forEach((target, i) => {
    target.addEventListener = originals[i]!;
  });
}

export function removeRecordedListeners(): void {
  for (const [target, type, listener, options] of recorded.splice(0))
    target.removeEventListener(type, listener, options);
}
