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

// The runtime's files Pyodide's loader fetches itself, besides the wasm.
const RUNTIME_FILES = { "pyodide-lock.json": "application/json", "python_stdlib.zip": "application/zip" };

// Every file is fetched here, together, before the loader runs, so a network lost mid-load
// fails this start once: left to fetch them itself, Pyodide's loader waits forever when
// the wasm is lost and leaves the other rejections unhandled (tests/viewer/
// test_pad_engine.py cuts each file in turn). The loader then reads the files from memory
// and gets the wasm compiled already, compiled as it downloaded beside the other files.
// (Warm starts, bench/pad_engine.py, medians of four: 5.9 s so, 6.2 s compiling the wasm
// only once every file is in, 5.7 s with Pyodide's own loading.)
async function start(manifest) {
  const runtime = new URL(manifest.runtime, self.location.href).href;
  const wasmURL = runtime + "pyodide.asm.wasm";
  const [{ loadPyodide }, { default: createPyodideModule }, files, modules, catalog, wasm] = await Promise.all([
    import(runtime + "pyodide.mjs"),
    import(runtime + "pyodide.asm.mjs"),
    Promise.all(Object.keys(RUNTIME_FILES).map((name) => bytes(runtime + name))),
    bytes(manifest.modules),
    manifest.catalog ? bytes(manifest.catalog) : null,
    WebAssembly.compileStreaming(fetch(wasmURL).then((r) => (r.ok ? r : Promise.reject(new Error(wasmURL + ": " + r.status))))),
  ]);
  const held = new Map(Object.keys(RUNTIME_FILES).map((name, i) => [runtime + name, new Response(files[i], { headers: { "Content-Type": RUNTIME_FILES[name] } })]));
  held.set(wasmURL, new Response(null, { headers: { "Content-Type": "application/wasm" } }));
  const network = self.fetch;
  self.fetch = (resource, options) => {
    const url = new URL(resource instanceof Request ? resource.url : String(resource), self.location.href).href;
    const response = held.get(url);
    return response ? Promise.resolve(response.clone()) : network(resource, options);
  };
  // The loader asks for the wasm to be compiled: it gets the module compiled above. It
  // would wait forever if instantiating failed: that failure fails the start instead.
  const instantiate = WebAssembly.instantiateStreaming;
  let lost;
  const failed = new Promise((_, reject) => (lost = reject));
  WebAssembly.instantiateStreaming = async (_source, imports) => {
    try {
      return { instance: await WebAssembly.instantiate(wasm, imports), module: wasm };
    } catch (error) {
      lost(error);
      throw error;
    }
  };
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
