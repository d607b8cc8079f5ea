package seq

import (
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// Sequence is a rest mesh plus F frames of its N vertices.
type Sequence struct {
	// Rest is the rest (reference) pose and the faces of every frame.
	Rest *mesh.Mesh
	// Frames holds F·N positions: vertex i of frame f is Frames[f*N+i].
	// They are float32, as the files they come from hold them (OBJ text
	// is rounded to the nearest float32), so a long cache is held once at
	// 12 bytes per vertex and frame; readers compute in float64 through
	// Pos and FrameInto.
	Frames []linalg.Vec3f
	// FrameNames names where each frame came from (a file, or "clip#k"), for
	// error messages and reports.
	FrameNames []string
	// Clips split the frames into named animations, in order and without
	// gaps. A sequence built with New has one clip, "default", at 30 fps.
	Clips []Clip
}

// Clip is a named, contiguous run of frames [Start, End) played at FPS.
type Clip struct {
	Name       string
	Start, End int
	FPS        float64
}

// Len returns the number of frames in c.
func (c Clip) Len() int { return c.End - c.Start }

// New returns an empty sequence with rest pose rest and one empty clip.
func New(rest *mesh.Mesh) *Sequence {
	return &Sequence{Rest: rest, Clips: []Clip{{Name: "default", FPS: 30}}}
}

// N returns the number of vertices.
func (s *Sequence) N() int { return len(s.Rest.Verts) }

// F returns the number of frames.
func (s *Sequence) F() int {
	if s.N() == 0 {
		return len(s.FrameNames)
	}
	return len(s.Frames) / s.N()
}

// Frame returns the positions of frame f, a view into Frames.
func (s *Sequence) Frame(f int) []linalg.Vec3f {
	n := s.N()
	return s.Frames[f*n : (f+1)*n : (f+1)*n]
}

// FrameInto returns the N positions of frame f in float64: dst filled
// with them, allocated when shorter than N. Keep the result as the next
// call's dst to reuse it.
func (s *Sequence) FrameInto(dst []linalg.Vec3, f int) []linalg.Vec3 {
	n := s.N()
	if cap(dst) < n {
		dst = make([]linalg.Vec3, n)
	}
	dst = dst[:n]
	for i, p := range s.Frames[f*n : (f+1)*n] {
		dst[i] = p.Vec3()
	}
	return dst
}

// Frames64 returns a float64 copy of every frame, laid out as Frames: 24
// bytes per vertex and frame, for small inputs and tests (loops over
// frames read them with FrameInto or Pos instead).
func (s *Sequence) Frames64() []linalg.Vec3 {
	out := make([]linalg.Vec3, len(s.Frames))
	for k, p := range s.Frames {
		out[k] = p.Vec3()
	}
	return out
}

// Pos returns vertex i of frame f.
func (s *Sequence) Pos(f, i int) linalg.Vec3 { return s.Frames[f*s.N()+i].Vec3() }

// AddFrame appends a frame, rounded to float32, to the last clip after
// checking it has the rest pose's vertex count and coordinates finite in
// float32. name (a file name, say) appears in errors and in FrameNames.
func (s *Sequence) AddFrame(verts []linalg.Vec3, name string) error {
	f := s.F() + 1
	if len(verts) != s.N() {
		return fmt.Errorf("frame %d (%s): %d vertices, the rest pose has %d", f, name, len(verts), s.N())
	}
	for i, v := range verts {
		if !v.IsFinite() {
			return fmt.Errorf("frame %d (%s): vertex %d has a non-finite coordinate %v", f, name, i+1, v)
		}
		if !v.Vec3f().IsFinite() {
			return fmt.Errorf("frame %d (%s): vertex %d has a coordinate beyond float32's range %v", f, name, i+1, v)
		}
	}
	for _, v := range verts {
		s.Frames = append(s.Frames, v.Vec3f())
	}
	s.FrameNames = append(s.FrameNames, name)
	s.Clips[len(s.Clips)-1].End = s.F()
	return nil
}

// AddFrames appends len(names) frames laid out as Frames is (frame k of
// them at frames[k*N:(k+1)*N]) to the last clip, after AddFrame's
// checks. A sequence with no frames yet keeps the slice itself, not a
// copy, so a loader fills one array in place and holds the positions
// once; the caller must not change frames afterwards. Frames filled in
// place past Frames' length (within its capacity) are taken there, also
// without a copy.
func (s *Sequence) AddFrames(frames []linalg.Vec3f, names []string) error {
	n := s.N()
	if len(frames) != len(names)*n {
		return fmt.Errorf("%d positions for %d frames of %d vertices", len(frames), len(names), n)
	}
	f0 := s.F()
	for k, v := range frames {
		if !v.IsFinite() {
			return fmt.Errorf("frame %d (%s): vertex %d has a non-finite coordinate %v", f0+k/n+1, names[k/n], k%n+1, v)
		}
	}
	switch l := len(s.Frames); {
	case len(frames) > 0 && cap(s.Frames)-l >= len(frames) && &s.Frames[:l+1][l] == &frames[0]:
		s.Frames = s.Frames[:l+len(frames)] // filled in place, past the length
	case l == 0:
		s.Frames = frames[:len(frames):len(frames)]
	default:
		s.Frames = append(s.Frames, frames...)
	}
	s.FrameNames = append(s.FrameNames, names...)
	s.Clips[len(s.Clips)-1].End = s.F()
	return nil
}

// AddMesh appends m as a frame after also checking that its faces are the
// rest pose's.
func (s *Sequence) AddMesh(m *mesh.Mesh, name string) error {
	if err := SameFaces(s.Rest, m); err != nil {
		return fmt.Errorf("frame %d (%s): %w", s.F()+1, name, err)
	}
	return s.AddFrame(m.Verts, name)
}

// StartClip begins a new clip; the frames added next belong to it. An empty
// last clip is replaced rather than kept.
func (s *Sequence) StartClip(name string, fps float64) {
	f := s.F()
	if last := &s.Clips[len(s.Clips)-1]; last.Len() == 0 {
		*last = Clip{Name: name, Start: f, End: f, FPS: fps}
		return
	}
	s.Clips = append(s.Clips, Clip{Name: name, Start: f, End: f, FPS: fps})
}

// Validate checks the invariants: at least one frame, frame count and clips
// consistent, clips named (uniquely, in UTF-8) with a positive finite frame
// rate — what a rig of the sequence needs to be written — and every
// position finite.
func (s *Sequence) Validate() error {
	if s.Rest == nil || s.N() == 0 {
		return fmt.Errorf("sequence has no vertices")
	}
	if err := s.Rest.Validate(); err != nil {
		return fmt.Errorf("rest pose: %w", err)
	}
	if len(s.Frames)%s.N() != 0 {
		return fmt.Errorf("frame data holds %d positions, not a multiple of %d vertices", len(s.Frames), s.N())
	}
	if s.F() == 0 {
		return fmt.Errorf("sequence has no frames")
	}
	at := 0
	names := make(map[string]bool, len(s.Clips))
	for _, c := range s.Clips {
		switch {
		case c.Start != at || c.End < c.Start:
			return fmt.Errorf("clip %q covers frames [%d,%d), expected to start at %d", c.Name, c.Start, c.End, at)
		case c.Name == "" || !utf8.ValidString(c.Name):
			return fmt.Errorf("clip %d: name %q: want a name in UTF-8", len(names)+1, c.Name)
		case names[c.Name]:
			return fmt.Errorf("clip name %q used twice", c.Name)
		case !(c.FPS > 0) || math.IsInf(c.FPS, 0):
			return fmt.Errorf("clip %q: frame rate %v is not a positive number", c.Name, c.FPS)
		}
		names[c.Name] = true
		at = c.End
	}
	if at != s.F() {
		return fmt.Errorf("clips cover %d of %d frames", at, s.F())
	}
	for k, v := range s.Frames {
		if !v.IsFinite() {
			return fmt.Errorf("frame %d: vertex %d has a non-finite coordinate", k/s.N()+1, k%s.N()+1)
		}
	}
	return nil
}

// Diagonal returns d, the rest pose's bounding-box diagonal.
func (s *Sequence) Diagonal() float64 { return mesh.Diagonal(s.Rest.Verts) }

// SameFaces reports an error when b's triangles differ from a's.
func SameFaces(a, b *mesh.Mesh) error {
	if len(a.Verts) != len(b.Verts) {
		return fmt.Errorf("%d vertices, the rest pose has %d", len(b.Verts), len(a.Verts))
	}
	if len(a.Tris) != len(b.Tris) {
		return fmt.Errorf("%d triangles, the rest pose has %d", len(b.Tris), len(a.Tris))
	}
	for t := range a.Tris {
		if a.Tris[t] != b.Tris[t] {
			return fmt.Errorf("triangle %d is %v, the rest pose has %v", t+1, plus1(b.Tris[t]), plus1(a.Tris[t]))
		}
	}
	return nil
}

func plus1(t [3]int) [3]int { return [3]int{t[0] + 1, t[1] + 1, t[2] + 1} }
