package collada

import (
	"bytes"
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/format/gltf"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
)

// roundTripRigs are the writer's test rigs (quads with two clips,
// triangles, a free-form rig), a static rig, the three-bone tube moved
// off the origin, and a generated biped.
func roundTripRigs(t *testing.T) map[string]*rig.Rig {
	rigs := testRigs(t)
	rigs["static"] = chainRig(t, 3, 6, 5, 1, 0, true)
	rigs["tube"] = testrig.Tube(t, 8, linalg.Vec3{10, -4, 3})
	biped, err := character.Generate(character.Biped, character.Options{Frames: 10, Vertices: 1500})
	if err != nil {
		t.Fatal(err)
	}
	rigs["biped"] = biped
	return rigs
}

// writeRead writes r as COLLADA version and reads it back.
func writeRead(t *testing.T, r *rig.Rig, version string, opt format.SceneOptions) *format.Scene {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, r, format.WriteOptions{Version: version}); err != nil {
		t.Fatal(err)
	}
	sc, err := ReadScene(fstest.MapFS{"rig.dae": {Data: buf.Bytes()}}, "rig.dae", opt)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestReadRoundTrip writes each rig as COLLADA 1.4.1 and 1.5 and reads it
// back: the same mesh (positions to text precision, polygons exactly),
// skeleton (names, parents, heads), weights, clips (names, frames, rates,
// every joint's rotation and translation) and the same frames, both as
// the sequence read and as the rig read plays them, within 1e-7 of the
// model's size.
func TestReadRoundTrip(t *testing.T) {
	for name, r := range roundTripRigs(t) {
		for _, version := range []string{"1.4.1", "1.5"} {
			t.Run(name+"/"+version, func(t *testing.T) {
				sc := writeRead(t, r, version, format.SceneOptions{})
				got := sc.Rig
				scale := mesh.Diagonal(r.Mesh.Verts) + radius(r.Mesh.Verts)
				tol := 1e-8 * scale
				if !slices.Equal(sc.Files, []string{"rig.dae"}) || got.Mesh != sc.Mesh {
					t.Errorf("files %v; rig's mesh is the scene's: %v", sc.Files, got.Mesh == sc.Mesh)
				}
				m := sc.Mesh
				if !slices.Equal(m.Tris, r.Mesh.Tris) || !slices.Equal(m.PolyStart, r.Mesh.PolyStart) || !slices.Equal(m.PolyVerts, r.Mesh.PolyVerts) {
					t.Fatalf("polygons differ: %d triangles, %d polygons; want %d, %d", len(m.Tris), m.NumPolys(), len(r.Mesh.Tris), r.Mesh.NumPolys())
				}
				for i, v := range m.Verts {
					if v.Dist(r.Mesh.Verts[i]) > tol {
						t.Fatalf("vertex %d at %v, want %v", i, v, r.Mesh.Verts[i])
					}
				}
				if got.Skeleton.Len() != r.Skeleton.Len() {
					t.Fatalf("%d joints, want %d", got.Skeleton.Len(), r.Skeleton.Len())
				}
				for j, jt := range r.Skeleton.Joints {
					g := got.Skeleton.Joints[j]
					if g.Name != jt.Name || g.Parent != jt.Parent || g.Head.Dist(jt.Head) > tol {
						t.Errorf("joint %d is %+v, want %+v", j, g, jt)
					}
				}
				for i, in := range r.Skin {
					if d := weightDist(in, got.Skin[i]); d > 1e-8 {
						t.Fatalf("vertex %d: weights %+v, want %+v", i, got.Skin[i], in)
					}
				}
				checkClips(t, got, r, scale)
				if len(r.Clips) == 0 {
					if sc.Sequence != nil {
						t.Error("a sequence for a rig without clips")
					}
					return
				}
				rep, err := metric.Compare(sc.Sequence, r)
				if err != nil {
					t.Fatal(err)
				}
				played, err := metric.Compare(sc.Sequence, got)
				if err != nil {
					t.Fatal(err)
				}
				if rep.MaxPercent > 1e-4 || played.MaxPercent > 1e-4 { // float32 frames and file
					t.Errorf("frames read are off by up to %.3g%% of d, the rig read plays them within %.3g%%", rep.MaxPercent, played.MaxPercent)
				}
			})
		}
	}
}

// weightDist is the largest difference between two influences' weights
// per joint.
func weightDist(a, b rig.Influence) float64 {
	w := map[rig.JointID]float64{}
	for k := range a.Weight {
		w[a.Joint[k]] += a.Weight[k]
		w[b.Joint[k]] -= b.Weight[k]
	}
	worst := 0.0
	for _, d := range w {
		worst = math.Max(worst, math.Abs(d))
	}
	return worst
}

// checkClips compares the clips read with the rig's: names, frame counts,
// rates (a one-frame clip has none to write, and reads at 30 fps), and
// every joint's rotation (matrix entries within 1e-7) and translation
// (within 1e-7 of the model's scale).
func checkClips(t *testing.T, got, want *rig.Rig, scale float64) {
	t.Helper()
	if len(got.Clips) != len(want.Clips) {
		t.Fatalf("%d clips, want %d", len(got.Clips), len(want.Clips))
	}
	for c, w := range want.Clips {
		g := got.Clips[c]
		fps := w.FPS
		if w.Frames == 1 {
			fps = 30
		}
		if g.Name != w.Name || g.Frames != w.Frames || g.FPS != fps {
			t.Fatalf("clip %d: %q, %d frames at %g fps; want %q, %d at %g", c, g.Name, g.Frames, g.FPS, w.Name, w.Frames, fps)
		}
		for k := range w.Rotation {
			dr := g.Rotation[k].Mat3().Sub(w.Rotation[k].Mat3())
			if maxAbs(dr) > 1e-7 || g.Translation[k].Dist(w.Translation[k]) > 1e-7*scale {
				t.Fatalf("clip %q frame %d joint %d: rotation %v translation %v; want %v, %v",
					w.Name, k/want.Skeleton.Len()+1, k%want.Skeleton.Len(), g.Rotation[k], g.Translation[k], w.Rotation[k], w.Translation[k])
			}
		}
	}
}

func maxAbs(m linalg.Mat3) float64 {
	worst := 0.0
	for _, row := range m {
		for _, x := range row {
			worst = math.Max(worst, math.Abs(x))
		}
	}
	return worst
}

// TestReadAgreesWithGLTF reads the same rig written as glTF and as
// COLLADA: the two readers give the same skeleton and the same frames,
// within glTF's float32 precision.
func TestReadAgreesWithGLTF(t *testing.T) {
	r := roundTripRigs(t)["biped"]
	var glb bytes.Buffer
	if err := gltf.Write(&glb, r, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	g, err := gltf.ReadScene(fstest.MapFS{"rig.glb": {Data: glb.Bytes()}}, "rig.glb", format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := writeRead(t, r, "", format.SceneOptions{})
	d := mesh.Diagonal(r.Mesh.Verts)
	// The glTF reader orders joints breadth first; match them by name.
	byName := map[string]rig.Joint{}
	for _, jt := range g.Rig.Skeleton.Joints {
		byName[jt.Name] = jt
	}
	cs := &c.Rig.Skeleton
	for _, cj := range cs.Joints {
		gj, ok := byName[cj.Name]
		parentsMatch := ok && (cj.Parent == rig.NoParent) == (gj.Parent == rig.NoParent) &&
			(cj.Parent == rig.NoParent || cs.Joints[cj.Parent].Name == g.Rig.Skeleton.Joints[gj.Parent].Name)
		if !parentsMatch || cj.Head.Dist(gj.Head) > 1e-6*d {
			t.Errorf("joint %s: COLLADA %+v, glTF %+v", cj.Name, cj, gj)
		}
	}
	if len(byName) != cs.Len() {
		t.Errorf("%d joints from COLLADA, %d from glTF", cs.Len(), len(byName))
	}
	if g.Sequence.F() != c.Sequence.F() {
		t.Fatalf("%d frames from COLLADA, %d from glTF", c.Sequence.F(), g.Sequence.F())
	}
	worst := 0.0
	for k, p := range c.Sequence.Frames {
		worst = math.Max(worst, p.Vec3().Dist(g.Sequence.Frames[k].Vec3())/d)
	}
	if worst > 1e-5 {
		t.Errorf("frames differ by up to %.3g·d", worst)
	}
	rep, err := metric.Compare(g.Sequence, c.Rig)
	if err != nil || rep.MaxPercent > 1e-3 {
		t.Errorf("the COLLADA rig plays the glTF frames within %.3g%% of d (%v)", rep.MaxPercent, err)
	}
}

// TestReadOptions: a sampling rate (both ends kept as frames), one clip by
// name, some frames, and a context that is done.
func TestReadOptions(t *testing.T) {
	r := chainRig(t, 4, 16, 8, 6, 2, true) // 6 frames at 24 fps: 0.2083 s
	whole := writeRead(t, r, "", format.SceneOptions{})
	t.Run("fps", func(t *testing.T) {
		sc := writeRead(t, r, "", format.SceneOptions{FPS: 48})
		s := sc.Sequence
		if s.F() != 22 || s.Clips[1].Len() != 11 || s.Clips[1].FPS != 48 {
			t.Fatalf("%d frames, clip %+v; want 11 per clip at 48 fps", s.F(), s.Clips[1])
		}
		// Every other frame is one of the clip's own (up to the rounding
		// of key times written with 9 digits).
		d := mesh.Diagonal(r.Mesh.Verts)
		for f := 0; f < 6; f++ {
			a, b := s.FrameInto(nil, 11+2*f), whole.Sequence.FrameInto(nil, 6+f)
			for i := range a {
				if a[i].Dist(b[i]) > 1e-7*d {
					t.Fatalf("frame %d at 48 fps is not frame %d at 24", 2*f+1, f+1)
				}
			}
		}
	})
	t.Run("clip", func(t *testing.T) {
		sc := writeRead(t, r, "", format.SceneOptions{Clip: "clip 1"})
		if len(sc.Rig.Clips) != 1 || sc.Rig.Clips[0].Name != "clip 1" || !slices.Equal(sc.Sequence.Frames, whole.Sequence.Frames[6*len(r.Mesh.Verts):]) {
			t.Errorf("--clip kept %d clips", len(sc.Rig.Clips))
		}
		var buf bytes.Buffer
		if err := Write(&buf, r, format.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		_, err := ReadScene(fstest.MapFS{"x.dae": {Data: buf.Bytes()}}, "x.dae", format.SceneOptions{Clip: "run"})
		if err == nil || !strings.Contains(err.Error(), `no clip named "run" (the file has ["clip 0" "clip 1"])`) {
			t.Errorf("unknown clip: %v", err)
		}
	})
	t.Run("frames", func(t *testing.T) {
		sc := writeRead(t, r, "", format.SceneOptions{Frames: format.FrameRange{First: 2, Last: 3}})
		n := len(r.Mesh.Verts)
		if sc.Sequence.F() != 4 || sc.Rig.Clips[1].Frames != 2 || !slices.Equal(sc.Sequence.Frame(2), whole.Sequence.Frame(7)) {
			t.Errorf("frames 2:3 kept %d frames", sc.Sequence.F())
		}
		if !slices.Equal(sc.Sequence.Frames[:n], whole.Sequence.Frame(1)) {
			t.Error("frame 2 of clip 0 is not the first kept")
		}
	})
	t.Run("context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var buf bytes.Buffer
		if err := Write(&buf, r, format.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		_, err := ReadScene(fstest.MapFS{"x.dae": {Data: buf.Bytes()}}, "x.dae", format.SceneOptions{Context: ctx})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
}
