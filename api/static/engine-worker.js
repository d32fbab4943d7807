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

// The runtime's files Pyodide's loader fetches itself.
const RUNTIME_FILES = { "pyodide-lock.json": "application/json", "python_stdlib.zip": "application/zip", "pyodide.asm.wasm": "application/wasm" };

// Every file is downloaded here, together, before the loader runs, so a network lost
// mid-load fails this start once: left to fetch them itself, Pyodide's loader waits
// forever when the wasm is lost and leaves the other rejections unhandled (tests/viewer/
// test_pad_engine.py cuts each file in turn). The loader then reads them from memory.
// (Compiling the wasm as it arrives from the HTTP cache instead made no difference to a
// warm start that bench/pad_engine.py could see: 4.5-5.3 s against 4.9-5.7, two runs a side.)
async function start(manifest) {
  const runtime = new URL(manifest.runtime, self.location.href).href;
  const [{ loadPyodide }, { default: createPyodideModule }, files, modules, catalog] = await Promise.all([
    import(runtime + "pyodide.mjs"),
    import(runtime + "pyodide.asm.mjs"),
    Promise.all(Object.keys(RUNTIME_FILES).map((name) => bytes(runtime + name))),
    bytes(manifest.modules),
    manifest.catalog ? bytes(manifest.catalog) : null,
  ]);
  const held = new Map(Object.keys(RUNTIME_FILES).map((name, i) => [runtime + name, new Response(files[i], { headers: { "Content-Type": RUNTIME_FILES[name] } })]));
  const network = self.fetch;
  self.fetch = (resource, options) => {
    const url = new URL(resource instanceof Request ? resource.url : String(resource), self.location.href).href;
    const response = held.get(url);
    return response ? Promise.resolve(response.clone()) : network(resource, options);
  };
  // The loader also waits forever when the wasm does not compile (a download that ended
  // early): that failure fails the start.
  const instantiate = WebAssembly.instantiateStreaming;
  let lost;
  const failed = new Promise((_, reject) => (lost = reject));
  WebAssembly.instantiateStreaming = (source, imports) =>
    instantiate(source, imports).catch((error) => {
      lost(error);
      throw error;
    });
  let pyodide;
  try {
    pyodide = await Promise.race([loadPyodide({ indexURL: runtime, createPyodideModule, stdout: () => {}, stderr: () => {} }), failed]);
  } finally {
    self.fetch = network;
    WebAssembly.instantiateStreaming = instantiate;
  }
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
