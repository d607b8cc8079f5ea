package viewer

import (
	"encoding/binary"
	"fmt"
	"math"
	"net/http"
	"strconv"

	"github.com/meshrig/meshrig/format/gltf"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// State is the JSON of GET /api/state and of every change's answer.
type State struct {
	Version  int         `json:"version"`
	Name     string      `json:"name"`
	Static   bool        `json:"static"`
	Diagonal float64     `json:"diagonal"`
	Vertices int         `json:"vertices"`
	Joints   []JointJSON `json:"joints"`
	Clips    []ClipJSON  `json:"clips"`
	HasInput bool        `json:"hasInput"`
	Report   Report      `json:"report"`
	Dirty    bool        `json:"dirty"`
	CanUndo  bool        `json:"canUndo"`
	CanRedo  bool        `json:"canRedo"`
	// Map takes the previous version's joint ids to this one's (-1: gone);
	// only in the answer to a change that renumbered joints.
	Map []rig.JointID `json:"map,omitempty"`
	// Copies lists, for each vertex rig.glb holds past the rig's own N
	// (split where per-corner attributes differ, as at a UV seam), the rig
	// vertex it copies: glTF vertex N+k is rig vertex copies[k], so the page
	// can colour it by /api/error's value for that vertex. Omitted when
	// there are none.
	Copies []int `json:"copies,omitempty"`
}

// JointJSON is one joint of State: parent -1 for the root; head in model
// units, rest pose.
type JointJSON struct {
	Name   string     `json:"name"`
	Parent int        `json:"parent"`
	Head   [3]float64 `json:"head"`
}

// ClipJSON is one clip of State.
type ClipJSON struct {
	Name   string  `json:"name"`
	Frames int     `json:"frames"`
	FPS    float64 `json:"fps"`
}

// state returns the State of the current rig; withMap adds the last
// change's joint map. Call with s.mu held.
func (s *Server) state(withMap bool) State {
	st := s.hist.current()
	r := st.rig
	out := State{
		Version: s.hist.version, Name: s.opt.Name, Static: s.isStatic(),
		Diagonal: s.diagonal(r), Vertices: len(r.Mesh.Verts),
		Joints: make([]JointJSON, r.Skeleton.Len()), Clips: make([]ClipJSON, len(r.Clips)),
		HasInput: s.opt.Input != nil, Report: st.report,
		Dirty: s.hist.unsaved() > 0, CanUndo: s.hist.canUndo(), CanRedo: s.hist.canRedo(),
		Copies: gltf.Copies(r.Mesh),
	}
	for j, jt := range r.Skeleton.Joints {
		out.Joints[j] = JointJSON{Name: jt.Name, Parent: int(jt.Parent), Head: jt.Head}
	}
	for c, cl := range r.Clips {
		out.Clips[c] = ClipJSON{Name: cl.Name, Frames: cl.Frames, FPS: cl.FPS}
	}
	if withMap {
		out.Map = s.hist.lastMap
	}
	return out
}

// static reports whether a re-solve binds the skin again (a rig of one
// static mesh) rather than refitting an animation.
func (s *Server) isStatic() bool {
	return s.opt.Static || s.opt.Input == nil
}

func (s *Server) getState(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	st := s.state(false)
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, st)
}

func (s *Server) getGLB(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	st := s.hist.current()
	s.mu.Unlock()
	s.firstGLB.Do(func() { s.logf("first rig.glb request %d ms after start", s.since()) })
	b, err := s.glb.get(st)
	if err != nil {
		fail(w, http.StatusInternalServerError, "writing the rig as glTF: %v", err)
		return
	}
	w.Header().Set("Content-Type", "model/gltf-binary")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	w.Write(b)
}

// frameQuery reads ?clip=C&frame=F against r's clips. On failure it has
// answered 400.
func frameQuery(w http.ResponseWriter, req *http.Request, r *rig.Rig) (c, f int, ok bool) {
	q := req.URL.Query()
	get := func(key string, n int, what string) (int, bool) {
		vs, present := q[key]
		if !present || len(vs) != 1 {
			fail(w, http.StatusBadRequest, "give one %s=N", key)
			return 0, false
		}
		v, err := strconv.Atoi(vs[0])
		if err != nil || v < 0 || v >= n {
			fail(w, http.StatusBadRequest, "%s=%q: want %s 0 to %d", key, vs[0], what, n-1)
			return 0, false
		}
		return v, true
	}
	if len(r.Clips) == 0 {
		fail(w, http.StatusBadRequest, "the rig has no clips")
		return 0, 0, false
	}
	if c, ok = get("clip", len(r.Clips), "a clip"); !ok {
		return 0, 0, false
	}
	if f, ok = get("frame", r.Clips[c].Frames, fmt.Sprintf("a frame of clip %q,", r.Clips[c].Name)); !ok {
		return 0, 0, false
	}
	return c, f, true
}

// getError answers N float32: per vertex, |rig(F) − input(F)| in % of d.
func (s *Server) getError(w http.ResponseWriter, req *http.Request) {
	if s.opt.Input == nil {
		fail(w, http.StatusNotFound, "no input animation was given: there is no error to show")
		return
	}
	s.mu.Lock()
	r := s.hist.current().rig
	s.mu.Unlock()
	c, f, ok := frameQuery(w, req, r)
	if !ok {
		return
	}
	got := r.Frame(nil, c, f)
	want := s.opt.Input.FrameInto(nil, inputFrame(r, c, f))
	scale := 100 / s.diagonal(r)
	out := make([]float32, len(got))
	for i := range got {
		out[i] = float32(got[i].Sub(want[i]).Norm() * scale)
	}
	writeFloats(w, out)
}

// getInput answers 3·N float32: the input's positions at the frame.
func (s *Server) getInput(w http.ResponseWriter, req *http.Request) {
	if s.opt.Input == nil {
		fail(w, http.StatusNotFound, "no input animation was given")
		return
	}
	s.mu.Lock()
	r := s.hist.current().rig
	s.mu.Unlock()
	c, f, ok := frameQuery(w, req, r)
	if !ok {
		return
	}
	writeFloats(w, flatten(s.opt.Input.Frame(inputFrame(r, c, f))))
}

func flatten(vs []linalg.Vec3f) []float32 {
	out := make([]float32, 3*len(vs))
	for i, v := range vs {
		copy(out[3*i:3*i+3], v[:])
	}
	return out
}

// writeFloats answers little-endian float32s.
func writeFloats(w http.ResponseWriter, v []float32) {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	w.Write(b)
}
