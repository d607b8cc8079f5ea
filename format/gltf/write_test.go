package gltf

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	gltflib "github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
)

// testRigs are the rigs every writer test writes: skeletal, free form,
// static, and one with a large mesh (uint32 indices).
func testRigs(t *testing.T) map[string]*rig.Rig {
	tube := testrig.Tube(t, 10, linalg.Vec3{})
	free, err := rig.NewFree(tube.Mesh, tube.Skin, 3, "free", 24, 4, freeTransforms(4, 3))
	if err != nil {
		t.Fatal(err)
	}
	static := *tube
	static.Clips = nil
	big := bigRig(t)
	two := *tube
	second := tube.Clips[0]
	second.Name = "second"
	two.Clips = []rig.Clip{tube.Clips[0], second}
	return map[string]*rig.Rig{"tube": tube, "free": free, "static": &static, "big": big, "twoclips": &two, "stretch": stretchRig(t)}
}

// stretchRig is the tube with scale tracks (rig.Clip.Scale): the middle
// joint squashes and stretches per axis, the root grows uniformly, so
// children inherit both.
func stretchRig(t *testing.T) *rig.Rig {
	r := testrig.Tube(t, 10, linalg.Vec3{})
	c := &r.Clips[0]
	c.Scale = make([]linalg.Vec3, c.Frames*3)
	for f := 0; f < c.Frames; f++ {
		ph := 2 * math.Pi * float64(f) / float64(c.Frames)
		c.Scale[f*3] = linalg.Vec3{1, 1, 1}.Scale(1 + 0.1*math.Sin(ph))
		c.Scale[f*3+1] = linalg.Vec3{1 + 0.4*math.Sin(ph), 1 - 0.2*math.Sin(ph), 1 - 0.2*math.Sin(ph)}
		c.Scale[f*3+2] = linalg.Vec3{1, 1, 1}
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	return r
}

func freeTransforms(frames, bones int) []linalg.Affine {
	var out []linalg.Affine
	for f := 0; f < frames; f++ {
		for b := 0; b < bones; b++ {
			q := linalg.QuatFromAxisAngle(linalg.Vec3{1, float64(b), 0.5}, 0.2*float64(f+b))
			out = append(out, linalg.Rigid(q, linalg.Vec3{0.1 * float64(f), float64(b) * 0.05, 0}))
		}
	}
	return out
}

// bigRig is a 300×300 grid (90k vertices) on one joint that slides.
func bigRig(t *testing.T) *rig.Rig {
	const n = 300
	var verts []linalg.Vec3
	var polys [][]int
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			verts = append(verts, linalg.Vec3{float64(x), float64(y), 0})
			if x > 0 && y > 0 {
				polys = append(polys, []int{(y-1)*n + x - 1, (y-1)*n + x, y*n + x, y*n + x - 1})
			}
		}
	}
	m, err := mesh.New(verts, polys)
	if err != nil {
		t.Fatal(err)
	}
	sk := rig.Skeleton{Joints: []rig.Joint{{Name: "root", Parent: rig.NoParent}}}
	skin := make(rig.Skin, len(verts))
	for i := range skin {
		skin[i].Weight[0] = 1
	}
	c := rig.NewClip(&sk, "slide", 30, 3)
	for f := 0; f < 3; f++ {
		c.Translation[f] = linalg.Vec3{float64(f), 0, 0}
	}
	return &rig.Rig{Mesh: m, Skeleton: sk, Skin: skin, Clips: []rig.Clip{c}}
}

// replay evaluates a written GLB at key frame f of animation a with a
// minimal evaluator of its own (keys, TRS nodes, skin), independent of
// the package's reader.
func replay(t *testing.T, doc *gltflib.Document, a, f int) []linalg.Vec3 {
	t.Helper()
	trs := make([]struct {
		t, s linalg.Vec3
		r    linalg.Quat
	}, len(doc.Nodes))
	for i, n := range doc.Nodes {
		trs[i].t = linalg.Vec3(n.TranslationOrDefault())
		trs[i].s = linalg.Vec3(n.ScaleOrDefault())
		r := n.RotationOrDefault()
		trs[i].r = linalg.Quat{W: r[3], X: r[0], Y: r[1], Z: r[2]}
	}
	if a >= 0 {
		an := doc.Animations[a]
		for _, ch := range an.Channels {
			s := an.Samplers[ch.Sampler]
			out, err := modeler.ReadAccessor(doc, doc.Accessors[s.Output], nil)
			if err != nil {
				t.Fatal(err)
			}
			switch ch.Target.Path {
			case gltflib.TRSRotation:
				q := out.([][4]float32)[f]
				trs[*ch.Target.Node].r = linalg.Quat{W: float64(q[3]), X: float64(q[0]), Y: float64(q[1]), Z: float64(q[2])}.Normalize()
			case gltflib.TRSTranslation:
				v := out.([][3]float32)[f]
				trs[*ch.Target.Node].t = linalg.Vec3{float64(v[0]), float64(v[1]), float64(v[2])}
			case gltflib.TRSScale:
				v := out.([][3]float32)[f]
				trs[*ch.Target.Node].s = linalg.Vec3{float64(v[0]), float64(v[1]), float64(v[2])}
			}
		}
	}
	global := make([]linalg.Affine, len(doc.Nodes))
	var visit func(i int, parent linalg.Affine)
	visit = func(i int, parent linalg.Affine) {
		global[i] = parent.Mul(linalg.TRS(trs[i].t, trs[i].r, trs[i].s))
		for _, c := range doc.Nodes[i].Children {
			visit(c, global[i])
		}
	}
	for _, root := range doc.Scenes[0].Nodes {
		visit(root, linalg.IdentityAffine())
	}
	skin := doc.Skins[0]
	ibm, err := modeler.ReadInverseBindMatrices(doc, doc.Accessors[*skin.InverseBindMatrices], nil)
	if err != nil {
		t.Fatal(err)
	}
	mats := make([]linalg.Affine, len(skin.Joints))
	for k, node := range skin.Joints {
		var c [16]float64
		for col := 0; col < 4; col++ {
			for row := 0; row < 4; row++ {
				c[4*col+row] = float64(ibm[k][row][col])
			}
		}
		mats[k] = global[node].Mul(linalg.AffineFromMat4(c))
	}
	prim := doc.Meshes[0].Primitives[0]
	pos, err := modeler.ReadPosition(doc, doc.Accessors[prim.Attributes[gltflib.POSITION]], nil)
	if err != nil {
		t.Fatal(err)
	}
	jts, err := modeler.ReadJoints(doc, doc.Accessors[prim.Attributes[gltflib.JOINTS_0]], nil)
	if err != nil {
		t.Fatal(err)
	}
	wts, err := modeler.ReadWeights(doc, doc.Accessors[prim.Attributes[gltflib.WEIGHTS_0]], nil)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]linalg.Vec3, len(pos))
	for i, p := range pos {
		v := linalg.Vec3{float64(p[0]), float64(p[1]), float64(p[2])}
		var sum float32
		for k := 0; k < 4; k++ {
			out[i] = out[i].Add(mats[jts[i][k]].Apply(v).Scale(float64(wts[i][k])))
			sum += wts[i][k]
		}
		if math.Abs(float64(sum)-1) > 2e-7 {
			t.Fatalf("vertex %d: float32 weights sum to %v", i, sum)
		}
	}
	return out
}

func TestWriteRoundTrip(t *testing.T) {
	for name, r := range testRigs(t) {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, r, format.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			doc := new(gltflib.Document)
			if err := gltflib.NewDecoder(bytes.NewReader(buf.Bytes())).Decode(doc); err != nil {
				t.Fatal(err)
			}
			if got := len(doc.Skins[0].Joints); got != r.Skeleton.Len() {
				t.Fatalf("%d skin joints, want %d", got, r.Skeleton.Len())
			}
			if len(doc.Animations) != len(r.Clips) {
				t.Fatalf("%d animations, want %d", len(doc.Animations), len(r.Clips))
			}
			d := mesh.Diagonal(r.Mesh.Verts)
			check := func(got, want []linalg.Vec3, what string) {
				var worst float64
				for i := range want {
					worst = math.Max(worst, got[i].Dist(want[i]))
				}
				if worst > 1e-5*d {
					t.Fatalf("%s: worst vertex off by %.3g (%.3g·d)", what, worst, worst/d)
				}
			}
			check(replay(t, doc, -1, 0), r.Mesh.Verts, "rest pose")
			for c := range r.Clips {
				for f := 0; f < r.Clips[c].Frames; f++ {
					check(replay(t, doc, c, f), r.Frame(nil, c, f), "animated frame")
				}
			}
		})
	}
}

// TestWriteJSON: a .gltf path gets JSON with the buffer embedded, which
// reads back as the same rig and the same frames as the .glb.
func TestWriteJSON(t *testing.T) {
	dir := t.TempDir()
	for name, r := range testRigs(t) {
		t.Run(name, func(t *testing.T) {
			glb, gltf := filepath.Join(dir, name+".glb"), filepath.Join(dir, name+".gltf")
			for _, p := range []string{glb, gltf} {
				if err := format.WriteFile(p, r, format.WriteOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			data, err := os.ReadFile(gltf)
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Buffers []struct{ URI string }
			}
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatalf("the .gltf is not JSON: %v", err)
			}
			if len(doc.Buffers) != 1 || !strings.HasPrefix(doc.Buffers[0].URI, "data:application/octet-stream;base64,") {
				t.Fatalf("buffers %.80q, want one embedded as a data: uri", doc.Buffers)
			}
			a, err := format.ReadScene(glb, format.SceneOptions{})
			if err != nil {
				t.Fatal(err)
			}
			b, err := format.ReadScene(gltf, format.SceneOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(a.Mesh.Verts, b.Mesh.Verts) || !slices.Equal(a.Mesh.Tris, b.Mesh.Tris) {
				t.Fatal("the .gltf's mesh differs from the .glb's")
			}
			if !reflect.DeepEqual(a.Rig, b.Rig) || !reflect.DeepEqual(a.Sequence, b.Sequence) {
				t.Fatal("the .gltf's rig or frames differ from the .glb's")
			}
			if len(r.Clips) > 0 {
				rep, err := metric.Compare(testrig.Play(t, r), b.Rig)
				if err != nil {
					t.Fatal(err)
				}
				if rep.MaxPercent > 1e-3 { // 1e-5·d
					t.Errorf("the .gltf's rig off by Max%% %.3g", rep.MaxPercent)
				}
			}
		})
	}
}

func TestWriteRefusesInvalidRig(t *testing.T) {
	r := testrig.Tube(t, 2, linalg.Vec3{})
	r.Skin[3].Weight[0] = 2
	if err := Write(&bytes.Buffer{}, r, format.WriteOptions{}); err == nil {
		t.Fatal("invalid weights written")
	}
}

// repoRoot is the module root, found from this file's location.
func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

func TestValidatorAcceptsOutput(t *testing.T) {
	root := repoRoot()
	_, err := exec.LookPath("node")
	_, verr := os.Stat(filepath.Join(root, ".ci", "node_modules", "gltf-validator"))
	shareddata.RequireTool(t, err == nil && verr == nil, "node with the npm package gltf-validator in .ci/node_modules")
	dir := t.TempDir()
	var files []string
	for name, r := range testRigs(t) {
		for _, ext := range []string{".glb", ".gltf"} {
			p := filepath.Join(dir, name+ext)
			if err := format.WriteFile(p, r, format.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			files = append(files, p)
		}
	}
	cmd := exec.Command("node", append([]string{filepath.Join(root, ".ci", "validate-gltf.mjs")}, files...)...)
	out, err := cmd.CombinedOutput()
	t.Logf("validator:\n%s", out)
	if err != nil {
		t.Fatalf("validator reports errors: %v", err)
	}
	if !strings.Contains(string(out), "0 errors") {
		t.Fatal("validator printed no verdict")
	}
}

func BenchmarkWrite(b *testing.B) {
	r := testrig.Tube(b, 100, linalg.Vec3{})
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := Write(&buf, r, format.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(buf.Len()))
}
