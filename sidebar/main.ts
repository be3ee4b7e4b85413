/**
 * The sidebar's script, bundled and inlined into dist/sidebar.html. It talks to the server only
 * through google.script.run.
 */
const statusLine = document.getElementById('status');
if (statusLine) statusLine.textContent = 'Ready.';
export {};
