// Keyboard shortcuts and the help overlay that lists them (built from the
// same table, so the two cannot disagree).

const $ = (id) => document.getElementById(id);

/** bindKeys installs the shortcuts; actions maps a name to a function. */
export function bindKeys(a) {
  const table = [
    ['Space', 'play / pause', (e) => e.key === ' ', a.togglePlay],
    ['← →', 'previous / next frame', (e) => e.key === 'ArrowLeft' || e.key === 'ArrowRight', (e) => a.step(e.key === 'ArrowLeft' ? -1 : 1)],
    ['C', 'next colour mode (joints, weights, error, material, plain)', (e) => e.key === 'c', a.nextColor],
    ['W', 'wireframe', (e) => e.key === 'w', a.toggleWireframe],
    ['K', 'skeleton on / off', (e) => e.key === 'k', a.toggleSkeleton],
    ['G', 'input ghost', (e) => e.key === 'g', a.toggleGhost],
    ['F', 'frame the rig', (e) => e.key === 'f', a.frame],
    ['Q', 'select tool', (e) => e.key === 'q', () => a.tool('select')],
    ['R', 'pose tool: rotate the selected joint', (e) => e.key === 'r', () => a.tool('pose')],
    ['M', 'move tool: drag the selected joint (rest pose)', (e) => e.key === 'm', () => a.tool('move')],
    ['0', 'reset pose', (e) => e.key === '0', a.resetPose],
    ['Delete', 'remove the selected joint', (e) => e.key === 'Delete' || e.key === 'Backspace', a.remove],
    ['S', 'split the bone ending at the selected joint', (e) => e.key === 's' && !e.ctrlKey && !e.metaKey, a.split],
    ['A', 'add a child to the selected joint', (e) => e.key === 'a', a.addChild],
    ['P', 'reparent: then click the new parent', (e) => e.key === 'p', a.reparent],
    ['O', 'make the selected joint the root', (e) => e.key === 'o', a.setRoot],
    ['Ctrl+Z', 'undo', (e) => (e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === 'z', a.undo],
    ['Ctrl+Y / Ctrl+Shift+Z', 'redo', (e) => (e.ctrlKey || e.metaKey) && (e.key.toLowerCase() === 'y' || (e.shiftKey && e.key.toLowerCase() === 'z')), a.redo],
    ['Enter', 're-solve', (e) => e.key === 'Enter', a.solve],
    ['Ctrl+S', 'save', (e) => (e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's', a.save],
    ['Esc', 'cancel a pick / deselect', (e) => e.key === 'Escape', a.cancel],
    ['?', 'this help', (e) => e.key === '?', a.help],
  ];
  const tbody = $('help-keys');
  for (const [keys, label] of table) {
    const tr = document.createElement('tr');
    const k = document.createElement('td');
    k.append(...keys.split(' / ').flatMap((s, i) => {
      const kbd = document.createElement('kbd');
      kbd.textContent = s;
      return i ? [' / ', kbd] : [kbd];
    }));
    const l = document.createElement('td');
    l.textContent = label;
    tr.append(k, l);
    tbody.append(tr);
  }
  window.addEventListener('keydown', (e) => {
    const t = e.target;
    const typing = t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement;
    if (typing && e.key !== 'Escape') return;
    // Enter and Space on a focused button press it; do not also run a shortcut.
    if (t instanceof HTMLButtonElement && (e.key === 'Enter' || e.key === ' ')) return;
    if (e.altKey) return;
    for (const [keys, , match, run] of table) {
      if ((e.ctrlKey || e.metaKey) && !keys.startsWith('Ctrl')) continue; // leave the browser's own
      if (match(e)) {
        e.preventDefault();
        try {
          const r = run(e);
          if (r && r.catch) r.catch(() => {});
        } catch (err) {
          a.error(err);
        }
        return;
      }
    }
  });
}
