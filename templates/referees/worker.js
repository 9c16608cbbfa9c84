// The referee's tablet runs the rules engine here, off the page's thread: Pyodide (from the
// npm registry, served by this site) and the project's own `scoring` package, zipped from
// the server's files (referees/tablet.py). Messages: {id, message} in, {id, answer} out,
// where message is a scoring.session message. Rendered by referees.views.worker.
import { loadPyodide } from "{{ pyodide|escapejs }}pyodide.mjs";

const started = performance.now();
const ready = (async () => {
  const pyodide = await loadPyodide({ indexURL: "{{ pyodide|escapejs }}" });
  const response = await fetch("{{ engine|escapejs }}");
  if (!response.ok) {
    throw new Error("engine " + response.status);
  }
  pyodide.unpackArchive(await response.arrayBuffer(), "zip", { extractDir: "/engine" });
  pyodide.runPython("import sys\nsys.path.insert(0, '/engine')");
  return pyodide.pyimport("scoring.session").handle;
})();

ready.then(
  () => postMessage({ ready: true, loadMs: performance.now() - started }),
  (error) => postMessage({ failed: String(error) })
);

onmessage = async (event) => {
  const { id, message } = event.data;
  try {
    const handle = await ready;
    postMessage({ id, answer: JSON.parse(handle(JSON.stringify(message))) });
  } catch (error) {
    postMessage({ id, answer: { fatal: { code: "worker", message: String(error) } } });
  }
};
