package viewer

import (
	"bytes"
	"sync"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/format/gltf"
	"github.com/meshrig/meshrig/rig"
)

// maxSteps bounds the undo history; rigs share their mesh, so a step
// costs its skeleton, skin and clips.
const maxSteps = 200

// step is one rig of the history with what the page asks of it.
type step struct {
	rig    *rig.Rig
	report Report
	// jointMap maps the previous step's joints to this one's (-1: gone);
	// nil when the skeleton kept its joints.
	jointMap []rig.JointID
}

// glbCache keeps the GLB of the step last asked for: the page fetches
// each version once or twice, and keeping every step's would hold a
// megabyte per undo step of a large rig.
type glbCache struct {
	mu  sync.Mutex
	st  *step
	b   []byte
	err error
}

// get returns st's rig as binary glTF, written by the writer `meshrig rig`
// uses, encoding it only when st is not the step cached.
func (c *glbCache) get(st *step) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.st != st {
		var b bytes.Buffer
		c.err = gltf.Write(&b, st.rig, format.WriteOptions{})
		c.st, c.b = st, b.Bytes()
	}
	return c.b, c.err
}

// history is the undo/redo list. Rigs in it are never modified.
type history struct {
	steps   []*step
	cur     int
	version int // bumped by every change, undo and redo included
	// saved indexes the step last saved or loaded; -1 once it left the
	// history (a new edit after undoing past it, or trimmed).
	saved   int
	changes int // changes since the last save
	// lastMap is the joint map of the last change, for the page's
	// selection; nil when joints kept their ids.
	lastMap []rig.JointID
}

func newHistory(first *step) history {
	return history{steps: []*step{first}, version: 1}
}

func (h *history) current() *step { return h.steps[h.cur] }
func (h *history) canUndo() bool  { return h.cur > 0 }
func (h *history) canRedo() bool  { return h.cur+1 < len(h.steps) }

// push makes st the current rig, dropping the redo branch.
func (h *history) push(st *step) {
	if h.saved > h.cur {
		h.saved = -1 // on the redo branch being dropped
	}
	h.steps = append(h.steps[:h.cur+1], st)
	if drop := len(h.steps) - maxSteps; drop > 0 {
		h.steps = append(h.steps[:0], h.steps[drop:]...)
		if h.saved -= drop; h.saved < 0 {
			h.saved = -1
		}
	}
	h.cur = len(h.steps) - 1
	h.changed(st.jointMap)
}

func (h *history) undo() bool {
	if !h.canUndo() {
		return false
	}
	gone := h.steps[h.cur]
	h.cur--
	h.changed(invert(gone.jointMap, h.current().rig.Skeleton.Len(), gone.rig.Skeleton.Len()))
	return true
}

func (h *history) redo() bool {
	if !h.canRedo() {
		return false
	}
	h.cur++
	h.changed(h.current().jointMap)
	return true
}

func (h *history) changed(m []rig.JointID) {
	h.version++
	h.changes++
	h.lastMap = m
}

// markSaved marks the current rig as saved.
func (h *history) markSaved() {
	h.saved = h.cur
	h.changes = 0
}

// unsaved counts the steps between the current rig and the one last
// saved or loaded: 0 when it is that rig (an undo back to it included);
// the changes made since the save when that rig left the history.
func (h *history) unsaved() int {
	switch {
	case h.saved == h.cur:
		return 0
	case h.saved >= 0:
		return max(h.cur-h.saved, h.saved-h.cur)
	}
	return max(h.changes, 1)
}

// invert turns a map from oldLen old joints to new ones (-1: removed;
// entries past oldLen, a joint the edit added, ignored) into the map from
// the newLen new joints to the old ones (-1: added); nil stays nil.
func invert(m []rig.JointID, oldLen, newLen int) []rig.JointID {
	if m == nil {
		return nil
	}
	out := make([]rig.JointID, newLen)
	for i := range out {
		out[i] = -1
	}
	for from, to := range m[:min(len(m), oldLen)] {
		if to >= 0 && int(to) < newLen {
			out[to] = rig.JointID(from)
		}
	}
	return out
}
