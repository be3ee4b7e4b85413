/**
 * The sidebar's script, bundled and inlined into dist/sidebar.html. It talks to the server only
 * through google.script.run.
 */
const status = document.getElementById('status');
if (status) status.textContent = 'Ready.';
