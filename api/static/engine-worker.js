// matchlog's rules engine off the page's main thread: Pyodide and the server's own Python
// (domain/ and projections/pad_engine.py) in a module worker, so the interpreter's start
// (seconds of CPU on a phone) never holds a tap. engine.js sends it {id, method, args}
// and gets {id, result} or {id, error}; it holds no rule, only carries JSON to Python.
// Served by /pad/engine-worker.js with the pad's policy: a worker's policy is its own.

let started = null; // the runtime and the modules, once
const matches = new Map(); // the pad's matches by the number engine.js gave them

async function bytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(url + ": " + response.status);
  return new Uint8Array(await response.arrayBuffer());
}

async function start(manifest) {
  // The lock file is fetched here, not by the runtime, so a network lost mid-load fails
  // this start instead of leaving a rejection nobody handles.
  const lockFile = fetch(manifest.runtime + "pyodide-lock.json").then((r) => (r.ok ? r.text() : Promise.reject(new Error(r.url + ": " + r.status))));
  lockFile.catch(() => {});
  const [{ loadPyodide }, modules, catalog] = await Promise.all([
    import(manifest.runtime + "pyodide.mjs"),
    bytes(manifest.modules),
    manifest.catalog ? bytes(manifest.catalog) : null,
  ]);
  const pyodide = await loadPyodide({ indexURL: manifest.runtime, lockFileContents: lockFile, stdout: () => {}, stderr: () => {} });
  pyodide.unpackArchive(modules, "zip", { extractDir: "/matchlog" });
  if (catalog) pyodide.FS.writeFile("/matchlog/moves.mo", catalog);
  pyodide.runPython("import sys; sys.path.insert(0, '/matchlog')");
  return { BrowserMatch: pyodide.pyimport("projections.pad_engine").BrowserMatch, catalog: catalog ? "/matchlog/moves.mo" : "" };
}

async function answer(method, args) {
  if (method === "start") {
    if (!started) started = start(args[0]);
    await started;
    return null;
  }
  const engine = await started;
  if (method === "open") {
    matches.set(args[0], engine.BrowserMatch(args[1], engine.catalog));
    return null;
  }
  // A call on a match: its method's JSON text, read by the page.
  const [match, name, ...rest] = args;
  return matches.get(match)[name](...rest);
}

self.onmessage = async (event) => {
  const { id, method, args } = event.data;
  try {
    self.postMessage({ id, result: await answer(method, args) });
  } catch (error) {
    self.postMessage({ id, error: String(error && error.message ? error.message : error) });
  }
};
