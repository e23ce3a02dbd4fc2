/**
 * An XMLHttpRequest that does nothing until the test answers it (or it is aborted): the edge of
 * the system for uploads, which go through XHR for their progress. Every request made is kept in
 * `FakeXhr.all`; `FakeXhr.open()` is the latest one still waiting.
 */
export class FakeXhr extends EventTarget {
  static all: FakeXhr[] = [];
  static reset() {
    FakeXhr.all = [];
  }
  /** The latest request neither answered nor aborted (to a URL `url` matches, if given). */
  static open(url?: RegExp): FakeXhr | undefined {
    return [...FakeXhr.all].reverse().find((x) => x.state === 'sent' && (!url || url.test(x.url)));
  }
  readonly upload = new EventTarget();
  state: 'new' | 'sent' | 'answered' | 'aborted' = 'new';
  status = 0;
  statusText = '';
  responseText = '';
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown = null;
  constructor() {
    super();
    FakeXhr.all.push(this);
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
    this.state = 'sent';
  }
  abort() {
    this.state = 'aborted';
    this.dispatchEvent(new Event('abort'));
  }
  answer(status: number, body: unknown) {
    this.state = 'answered';
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.dispatchEvent(new Event('load'));
  }
  progress(loaded: number, total: number) {
    this.upload.dispatchEvent(Object.assign(new Event('progress'), { lengthComputable: true, loaded, total }));
  }
}
