package abc

import (
	"bytes"
	"compress/gzip"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
)

// The tiny mesh: two quads and a pentagon, counter-clockwise seen from +z,
// written clockwise as Maya's exporter writes them.
var (
	tinyVerts = []float32{0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 1, 0, 1, 0.8, 0, 2, 1, 0, 1.5, 2.2, 0, 0.5, 2.2, 0}
	tinyPolys = [][]int{{0, 1, 4, 3}, {1, 2, 5, 4}, {3, 4, 5, 6, 7}}
)

// tinyTopology returns the face counts and the clockwise face indices.
func tinyTopology() (counts, indices []int32) {
	for _, p := range tinyPolys {
		counts = append(counts, int32(len(p)))
		for j := len(p) - 1; j >= 0; j-- {
			indices = append(indices, int32(p[j]))
		}
	}
	return counts, indices
}

// tinyUniform: an Xform translating by (s, 0, 0) over a PolyMesh moving
// by (0, s/2, 0) at sample s, both sampled at 24 fps from 1/24 s; face-
// varying UVs equal to each corner's vertex x and y.
func tinyUniform(samples int) []byte {
	counts, indices := tinyTopology()
	var pos [][]float32
	var trans [][3]float64
	for s := 0; s < samples; s++ {
		p := slices.Clone(tinyVerts)
		for v := 0; v < len(p)/3; v++ {
			p[3*v+1] += 0.5 * float32(s)
		}
		pos = append(pos, p)
		trans = append(trans, [3]float64{float64(s), 0, 0})
	}
	var uv []float32
	for v := 0; v < len(tinyVerts)/3; v++ {
		uv = append(uv, tinyVerts[3*v], tinyVerts[3*v+1])
	}
	m := meshObj("shape", 1, pos, counts, indices, uv, indices)
	samplings := []TimeSampling{{Cycle: 1, Times: []float64{0}}, {Cycle: 1.0 / 24, Times: []float64{1.0 / 24}, MaxSamples: samples}}
	return writeArchive(samplings, "_ai_Application=test", []*tobj{xformObj("xf", 1, trans, m)})
}

// tinyAcyclic: the same mesh, static, under an Xform whose translation
// (10·t, 0, 0) is sampled at the uneven times 0, 0.1 and 0.3 s.
func tinyAcyclic() []byte {
	counts, indices := tinyTopology()
	m := meshObj("shape", 0, [][]float32{tinyVerts}, counts, indices, nil, nil)
	samplings := []TimeSampling{{Cycle: 1, Times: []float64{0}}, {Times: []float64{0, 0.1, 0.3}, MaxSamples: 3}}
	return writeArchive(samplings, "", []*tobj{xformObj("xf", 1, [][3]float64{{0, 0, 0}, {1, 0, 0}, {3, 0, 0}}, m)})
}

func readBytes(t *testing.T, b []byte, opt Options) *Scene {
	t.Helper()
	sc, err := Read(bytes.NewReader(b), int64(len(b)), opt)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func near(a, b linalg.Vec3, tol float64) bool { return a.Sub(b).Norm() <= tol }

func tinyVert(v int) linalg.Vec3 {
	return linalg.Vec3{float64(tinyVerts[3*v]), float64(tinyVerts[3*v+1]), float64(tinyVerts[3*v+2])}
}

// TestTinyUniform reads the uniform file back: objects, polygons in
// counter-clockwise order, positions with the Xform applied, frame times
// at 24 fps, UVs in corner order.
func TestTinyUniform(t *testing.T) {
	sc := readBytes(t, tinyUniform(3), Options{})
	s := sc.Sequence
	if s.N() != 8 || s.F() != 3 || len(s.Clips) != 1 || math.Abs(s.Clips[0].FPS-24) > 1e-9 {
		t.Fatalf("got %d vertices, %d frames, clips %+v; want 8, 3, one at 24 fps", s.N(), s.F(), s.Clips)
	}
	for k, want := range tinyPolys {
		if got := s.Rest.Poly(k); !slices.Equal(got, want) {
			t.Errorf("polygon %d = %v, want %v", k, got, want)
		}
	}
	if len(s.Rest.Tris) != 2+2+3 {
		t.Errorf("%d triangles, want 7 (fans of 4, 4 and 5)", len(s.Rest.Tris))
	}
	for f := 0; f < 3; f++ {
		if want := float64(f+1) / 24; math.Abs(sc.Times[f]-want) > 1e-12 {
			t.Errorf("frame %d at %v s, want %v", f, sc.Times[f], want)
		}
		for v, p := range s.FrameInto(nil, f) {
			want := tinyVert(v).Add(linalg.Vec3{float64(f), 0.5 * float64(f), 0})
			if !near(p, want, 1e-6) {
				t.Fatalf("frame %d vertex %d = %v, want %v", f, v, p, want)
			}
		}
	}
	if len(sc.Objects) != 2 || sc.Objects[0].Path != "/xf" || sc.Objects[1].Path != "/xf/shape" ||
		sc.Objects[1].Type != "AbcGeom_PolyMesh_v1" || sc.Objects[1].Verts != 8 || sc.Objects[1].Samples != 3 || sc.Objects[1].FirstVert != 0 {
		t.Errorf("objects %+v", sc.Objects)
	}
	// The rest mesh's Surface: one part, the UVs per triangle corner with v
	// flipped top-down.
	sf := s.Rest.Surface
	if sf == nil || len(sf.Parts) != 1 || sf.Parts[0].Name != "/xf/shape" || sf.TriPart != nil || len(sf.UVs) != 1 || sf.Normals != nil {
		t.Fatalf("surface %+v, want one part /xf/shape and one UV set", sf)
	}
	for tr, tri := range s.Rest.Tris {
		for k, v := range tri {
			if got, want := sf.UVs[0].At(tr, k, v), [2]float32{tinyVerts[3*v], 1 - tinyVerts[3*v+1]}; got != want {
				t.Errorf("triangle %d corner %d (vertex %d): uv %v, want %v", tr, k, v, got, want)
			}
		}
	}
	uv := sc.Parts[0].UV
	if uv == nil || uv.Scope != "fvr" || len(uv.Indices) != 13 {
		t.Fatalf("uv %+v, want 13 face-varying indices", uv)
	}
	c := 0
	for k := range tinyPolys {
		for _, v := range s.Rest.Poly(k) {
			i := uv.Indices[c]
			if uv.Values[2*i] != tinyVerts[3*v] || uv.Values[2*i+1] != tinyVerts[3*v+1] {
				t.Errorf("polygon %d corner of vertex %d has uv %v, want its x y", k, v, uv.Values[2*i:2*i+2])
			}
			c++
		}
	}
}

// TestTinyAcyclic reads uneven sample times as frames at 30 fps over their
// span, the translation interpolated between samples.
func TestTinyAcyclic(t *testing.T) {
	sc := readBytes(t, tinyAcyclic(), Options{})
	s := sc.Sequence
	if s.F() != 10 || math.Abs(s.Clips[0].FPS-30) > 1e-9 {
		t.Fatalf("%d frames at %v fps, want 10 at 30", s.F(), s.Clips[0].FPS)
	}
	for f := 0; f < s.F(); f++ {
		tm := float64(f) / 30
		if math.Abs(sc.Times[f]-tm) > 1e-12 {
			t.Errorf("frame %d at %v s, want %v", f, sc.Times[f], tm)
		}
		for v, p := range s.FrameInto(nil, f) {
			if want := tinyVert(v).Add(linalg.Vec3{10 * tm, 0, 0}); !near(p, want, 1e-6) {
				t.Fatalf("frame %d vertex %d = %v, want %v", f, v, p, want)
			}
		}
	}
	// An asked rate resamples; --frames keeps a range.
	sc = readBytes(t, tinyAcyclic(), Options{FPS: 20, Frames: format.FrameRange{First: 2, Last: 3}})
	if sc.Sequence.F() != 2 || math.Abs(sc.Times[0]-0.05) > 1e-12 || !near(sc.Sequence.FrameInto(nil, 1)[0], linalg.Vec3{1, 0, 0}, 1e-6) {
		t.Errorf("at 20 fps frames 2:3: times %v, frame 3 vertex 1 %v; want 0.05, 0.1 and (1, 0, 0)", sc.Times, sc.Sequence.Frame(1)[0])
	}
}

// TestPick: --object picks a mesh by its path or its Xform's; a wrong path
// names the meshes there are.
func TestPick(t *testing.T) {
	b := tinyUniform(2)
	for _, path := range []string{"/xf/shape", "/xf"} {
		if sc := readBytes(t, b, Options{Object: path}); sc.Sequence.N() != 8 {
			t.Errorf("--object %s: %d vertices, want 8", path, sc.Sequence.N())
		}
	}
	_, err := Read(bytes.NewReader(b), int64(len(b)), Options{Object: "/nope"})
	if err == nil || !strings.Contains(err.Error(), "/xf/shape") {
		t.Errorf("--object /nope: %v, want an error naming /xf/shape", err)
	}
}

// TestTopologyChange: a mesh whose point count changes is left out when
// not picked (then nothing is left), and picked it is an error naming
// the sample.
func TestTopologyChange(t *testing.T) {
	counts, indices := tinyTopology()
	more := append(slices.Clone(tinyVerts), 3, 3, 3)
	m := meshObj("shape", 1, [][]float32{tinyVerts, tinyVerts, more}, counts, indices, nil, nil)
	samplings := []TimeSampling{{Cycle: 1, Times: []float64{0}}, {Cycle: 0.5, Times: []float64{0}, MaxSamples: 3}}
	b := writeArchive(samplings, "", []*tobj{m})
	_, err := Read(bytes.NewReader(b), int64(len(b)), Options{})
	if !errors.Is(err, format.ErrNoFrames) {
		t.Errorf("without --object: %v, want ErrNoFrames", err)
	}
	_, err = Read(bytes.NewReader(b), int64(len(b)), Options{Object: "/shape"})
	if err == nil || !strings.Contains(err.Error(), "sample 2 (time 1 s)") {
		t.Errorf("--object /shape: %v, want an error naming sample 2", err)
	}
}

// TestXformOps checks each operation against its matrix: Alembic composes
// them so that the first is applied last.
func TestXformOps(t *testing.T) {
	p := linalg.Vec3{1, 2, 3}
	cases := []struct {
		ops  []OpKind
		vals []float64
		want linalg.Vec3
	}{
		{[]OpKind{OpTranslate, OpScale}, []float64{10, 0, 0, 2, 2, 2}, linalg.Vec3{12, 4, 6}},
		{[]OpKind{OpScale, OpTranslate}, []float64{2, 2, 2, 10, 0, 0}, linalg.Vec3{22, 4, 6}},
		{[]OpKind{OpRotateZ}, []float64{90}, linalg.Vec3{-2, 1, 3}},
		{[]OpKind{OpRotate}, []float64{1, 0, 0, 90}, linalg.Vec3{1, -3, 2}},
		{[]OpKind{OpMatrix}, []float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 6, 7, 1}, linalg.Vec3{6, 8, 10}},
	}
	for _, c := range cases {
		m := linalg.IdentityAffine()
		off := 0
		for _, k := range c.ops {
			m = m.Mul(opAffine(k, c.vals[off:off+channels[k]]))
			off += channels[k]
		}
		if got := m.Apply(p); !near(got, c.want, 1e-12) {
			t.Errorf("ops %v %v: %v, want %v", c.ops, c.vals, got, c.want)
		}
	}
}

// TestHDF5 refuses an HDF5 Alembic file by its signature.
func TestHDF5(t *testing.T) {
	b := append([]byte("\x89HDF\r\n\x1a\n"), make([]byte, 64)...)
	_, err := Open(bytes.NewReader(b), int64(len(b)))
	if !errors.Is(err, format.ErrUnsupported) || !strings.Contains(err.Error(), "re-export as Ogawa") {
		t.Errorf("%v, want ErrUnsupported asking for Ogawa", err)
	}
}

// TestReadSceneGzip reads a gzip-compressed cache through format.ReadScene
// (decompressed into memory) and names the clip after the file.
func TestReadSceneGzip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tiny.abc.gz")
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(tinyUniform(3))
	zw.Close()
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sc, err := format.ReadScene(path, format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s := sc.Sequence; s.N() != 8 || s.F() != 3 || s.Clips[0].Name != "tiny" || len(sc.Files) != 1 || sc.Files[0] != path {
		t.Errorf("%d vertices, %d frames, clip %q, files %v", s.N(), s.F(), s.Clips[0].Name, sc.Files)
	}
	if _, err := format.ReadScene(path, format.SceneOptions{Clip: "other"}); err == nil || !strings.Contains(err.Error(), `"tiny"`) {
		t.Errorf("--clip other: %v, want an error naming the clip", err)
	}
}
