package collada

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// rz is the rotation about z by deg degrees.
func rz(deg float64) linalg.Affine {
	return linalg.Rigid(linalg.QuatFromAxisAngle(linalg.Vec3{0, 0, 1}, deg*math.Pi/180), linalg.Vec3{})
}

// checkFrames compares every frame of the sequence, and what the rig
// plays, with want(clip, frame), within tol.
func checkFrames(t *testing.T, sc *format.Scene, tol float64, want func(c, f int) []linalg.Vec3) {
	t.Helper()
	s := sc.Sequence
	for c, cl := range s.Clips {
		for f := 0; f < cl.Len(); f++ {
			w := want(c, f)
			played := sc.Rig.Frame(nil, c, f)
			for i, p := range s.FrameInto(nil, cl.Start+f) {
				// The frames hold float32: their rounding on top of tol.
				if p.Dist(w[i]) > tol+1e-7*w[i].Norm() || played[i].Dist(w[i]) > tol {
					t.Fatalf("clip %q frame %d vertex %d: read %v, rig plays %v, want %v", cl.Name, f+1, i, p, played[i], w[i])
				}
			}
		}
	}
}

// TestReadTransformChannels: an arm whose root turns about z by a rotate
// .ANGLE channel (0° to 90° over a second) while a translate .X channel
// stretches the child's bone from 1 to 2 (a free bone, as rig.Clip may
// hold), sampled at 4 fps: every frame as composed by hand.
func TestReadTransformChannels(t *testing.T) {
	d := arm()
	d.anims = animXML("turn", "a/rz.ANGLE", "0 1", "0 90", 1, "LINEAR LINEAR") + "\n" +
		animXML("stretch", "b/t.X", "0 1", "1 2", 1, "")
	sc, err := readDoc(t, d.String(), format.SceneOptions{FPS: 4})
	if err != nil {
		t.Fatal(err)
	}
	cl := sc.Sequence.Clips
	if len(cl) != 1 || cl[0].Name != "default" || cl[0].Len() != 5 || cl[0].FPS != 4 {
		t.Fatalf("clips %+v, want one clip \"default\" of 5 frames at 4 fps", cl)
	}
	heads := []linalg.Vec3{{0, 0, 0}, {1, 0, 0}}
	for j, jt := range sc.Rig.Skeleton.Joints {
		if jt.Head != heads[j] || jt.Name != []string{"a", "b"}[j] || jt.Parent != rig.JointID(j-1) {
			t.Errorf("joint %d is %+v", j, jt)
		}
	}
	checkFrames(t, sc, 1e-12, func(_, f int) []linalg.Vec3 {
		u := float64(f) / 4
		r := rz(90 * u)
		return []linalg.Vec3{r.Apply(linalg.Vec3{0.5, 0, 0}), r.Apply(linalg.Vec3{2 + u, 0, 0}), r.Apply(linalg.Vec3{1 + u/2, 0.5, 0})}
	})
	// At its own keys: 0 and 1 s, evenly spaced, so 2 frames at 1 fps.
	own, err := readDoc(t, d.String(), format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c := own.Sequence.Clips[0]; c.Len() != 2 || c.FPS != 1 {
		t.Errorf("at its own keys: %d frames at %g fps, want 2 at 1", c.Len(), c.FPS)
	}
}

// TestReadStep: STEP keys hold their value until the next key.
func TestReadStep(t *testing.T) {
	d := arm()
	d.anims = animXML("turn", "a/rz.ANGLE", "0 1", "0 90", 1, "STEP STEP")
	sc, err := readDoc(t, d.String(), format.SceneOptions{FPS: 4})
	if err != nil {
		t.Fatal(err)
	}
	checkFrames(t, sc, 1e-12, func(_, f int) []linalg.Vec3 {
		r := rz(0)
		if f == 4 {
			r = rz(90)
		}
		return []linalg.Vec3{r.Apply(linalg.Vec3{0.5, 0, 0}), r.Apply(linalg.Vec3{2, 0, 0}), r.Apply(linalg.Vec3{1, 0.5, 0})}
	})
}

// TestReadRestOrientation: joints whose bind pose is turned (bones along
// y, their frames turned 90° about z, as Blender and Maya write them),
// animated by whole matrices. The rig keeps identity rest orientations:
// the turn goes into its clips, and it plays every frame — at the keys
// and between them, where matrices interpolate as rotation and
// translation — as the skinning formula does, composed here by hand.
func TestReadRestOrientation(t *testing.T) {
	rx := func(deg float64) linalg.Affine {
		return linalg.Rigid(linalg.QuatFromAxisAngle(linalg.Vec3{1, 0, 0}, deg*math.Pi/180), linalg.Vec3{})
	}
	one := linalg.Translation(linalg.Vec3{1, 0, 0})
	bindA, bindB := rz(90), rz(90).Mul(one)
	ibmA, _ := bindA.Inverse()
	ibmB, _ := bindB.Inverse()
	d := doc141{
		pos:     "0 0.5 0 0 2 0 0.2 1 0",
		prims:   `<triangles count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2</p></triangles>`,
		joints:  "a b",
		ibm:     rowMajor(ibmA) + " " + rowMajor(ibmB),
		weights: "1 0.5",
		vcount:  "1 1 2",
		v:       "0 0 1 0 0 1 1 1",
		nodes: `<node id="a" sid="a" type="JOINT"><matrix sid="m">` + rowMajor(bindA) + `</matrix>` + "\n" +
			`<node id="b" sid="b" type="JOINT"><matrix sid="m">` + rowMajor(one) + `</matrix></node></node>`,
		skeleton: "#a",
		anims: animXML("a", "a/m", "0 1", rowMajor(bindA)+" "+rowMajor(bindA.Mul(rx(60))), 16, "LINEAR LINEAR") + "\n" +
			animXML("b", "b/m", "0 1", rowMajor(one)+" "+rowMajor(one.Mul(rz(90))), 16, "LINEAR LINEAR"),
	}
	rest := []linalg.Vec3{{0, 0.5, 0}, {0, 2, 0}, {0.2, 1, 0}}
	for _, fps := range []float64{0, 4} {
		sc, err := readDoc(t, d.String(), format.SceneOptions{FPS: fps})
		if err != nil {
			t.Fatal(err)
		}
		if h := sc.Rig.Skeleton.Joints[1].Head; h.Dist(linalg.Vec3{0, 1, 0}) > 1e-9 {
			t.Errorf("joint b's head at %v, want (0, 1, 0)", h)
		}
		n := sc.Sequence.F()
		if n != map[float64]int{0: 2, 4: 5}[fps] {
			t.Fatalf("at %g fps: %d frames", fps, n)
		}
		checkFrames(t, sc, 1e-8, func(_, f int) []linalg.Vec3 {
			u := float64(f) / float64(n-1)
			ga := bindA.Mul(rx(60 * u))
			ma, mb := ga.Mul(ibmA), ga.Mul(one).Mul(rz(90*u)).Mul(ibmB)
			return []linalg.Vec3{ma.Apply(rest[0]), mb.Apply(rest[1]), ma.Apply(rest[2]).Scale(0.5).Add(mb.Apply(rest[2]).Scale(0.5))}
		})
	}
}

// TestReadForest: two top joints hang under a still "root" added at the
// origin, and the rig plays the file.
func TestReadForest(t *testing.T) {
	d := arm()
	d.nodes = `<node id="a" sid="a" name="a" type="JOINT"><translate sid="t">0 0 0</translate><rotate sid="rz">0 0 1 0</rotate></node>` + "\n" +
		`<node id="b" sid="b" name="b" type="JOINT"><translate sid="t">1 0 0</translate><rotate sid="rz">0 0 1 0</rotate></node>`
	d.skeleton = ""
	d.anims = animXML("turn", "b/rz.ANGLE", "0 1", "0 90", 1, "")
	sc, err := readDoc(t, d.String(), format.SceneOptions{FPS: 2})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, jt := range sc.Rig.Skeleton.Joints {
		got = append(got, fmt.Sprintf("%s<%d", jt.Name, jt.Parent))
	}
	if strings.Join(got, " ") != "root<-1 a<0 b<0" {
		t.Errorf("joints %v, want root<-1 a<0 b<0", got)
	}
	checkFrames(t, sc, 1e-12, func(_, f int) []linalg.Vec3 {
		mb := linalg.Translation(linalg.Vec3{1, 0, 0}).Mul(rz(45 * float64(f))).Mul(linalg.Translation(linalg.Vec3{-1, 0, 0}))
		v2 := linalg.Vec3{1, 0.5, 0}
		return []linalg.Vec3{{0.5, 0, 0}, mb.Apply(linalg.Vec3{2, 0, 0}), v2.Scale(0.5).Add(mb.Apply(v2).Scale(0.5))}
	})
}

// TestReadWideInfluences: a vertex with five influences keeps its four
// largest in the rig, renormalized, while the sequence plays all five, as
// the file does.
func TestReadWideInfluences(t *testing.T) {
	var nodes, ibm strings.Builder
	for j := 4; j >= 0; j-- {
		n := fmt.Sprintf(`<node id="j%d" sid="j%d" type="JOINT"><translate sid="t">%d 0 0</translate><rotate sid="rz">0 0 1 0</rotate>`, j, j, min(4-j, 1))
		nodes.WriteString(n)
	}
	nodes.WriteString(strings.Repeat("</node>", 5))
	for j := 0; j < 5; j++ {
		ibm.WriteString(rowMajor(linalg.Translation(linalg.Vec3{-float64(4 - j), 0, 0})) + " ")
	}
	d := doc141{
		pos:     "0 1 0 1 0 0 0 0 1",
		prims:   `<triangles count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2</p></triangles>`,
		joints:  "j0 j1 j2 j3 j4",
		ibm:     ibm.String(),
		weights: "0.1 0.15 0.2 0.25 0.3 1",
		vcount:  "5 1 1",
		v:       "0 0 1 1 2 2 3 3 4 4 4 5 4 5",
		nodes:   nodes.String(),
		anims:   animXML("turn", "j0/rz.ANGLE", "0 1", "0 90", 1, ""),
	}
	// Joint j sits at x = 4 − j: j4 is the root, j0 the tip, which turns.
	sc, wide, err := readScene(fstest.MapFS{"x.dae": {Data: []byte(d.String())}}, "x.dae", format.SceneOptions{}, defaults)
	if err != nil {
		t.Fatal(err)
	}
	if !wide {
		t.Error("wide = false for a vertex of five influences")
	}
	in := sc.Rig.Skin[0]
	var sum float64
	for k, w := range in.Weight {
		sum += w
		if name := sc.Rig.Skeleton.Joints[in.Joint[k]].Name; name == "j0" && w > 0 {
			t.Errorf("the smallest influence, j0, is kept: %+v", in)
		}
	}
	if math.Abs(sum-1) > 1e-12 || math.Abs(in.Weight[0]-0.3/0.9) > 1e-12 {
		t.Errorf("rig skin of vertex 0: %+v, want 0.3, 0.25, 0.2, 0.15 over 0.9", in)
	}
	last := sc.Sequence.FrameInto(nil, sc.Sequence.F()-1)
	tip := linalg.Vec3{4, 0, 0}
	want := linalg.Vec3{0, 1, 0}.Scale(0.9).Add(rz(90).Apply(linalg.Vec3{0, 1, 0}.Sub(tip)).Add(tip).Scale(0.1))
	if last[0].Dist(want) > 1e-7 { // float32 frames
		t.Errorf("vertex 0 at the end: %v, want %v (all five influences)", last[0], want)
	}
	if played := sc.Rig.Frame(nil, 0, 1); played[0].Dist(linalg.Vec3{0, 1, 0}) > 1e-12 {
		t.Errorf("the rig moves vertex 0 to %v; its kept joints are still", played[0])
	}
}

// TestReadBindShape: the bind shape matrix places the geometry in the
// bind pose, which is the rest mesh.
func TestReadBindShape(t *testing.T) {
	d := arm()
	d.bindShape = rowMajor(linalg.Translation(linalg.Vec3{0, 0, 1}))
	sc, err := readDoc(t, d.String(), format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []linalg.Vec3{{0.5, 0, 1}, {2, 0, 1}, {1, 0.5, 1}}
	if !slices.Equal(sc.Mesh.Verts, want) || sc.Rig.Mesh != sc.Mesh || sc.Sequence != nil {
		t.Errorf("rest mesh %v (rig's the same: %v), sequence %v; want %v and no sequence", sc.Mesh.Verts, sc.Rig.Mesh == sc.Mesh, sc.Sequence, want)
	}
}

// TestReadClipGrouping: animations without clips play together as one
// clip when they animate different values, apart when they animate the
// same; an <animation_clip> plays its animations from its start to its
// end, and an animation it instances is not read again.
func TestReadClipGrouping(t *testing.T) {
	turnA := animXML("A", "a/rz.ANGLE", "0 0.5 1", "0 45 90", 1, "")
	for _, tc := range []struct {
		name, anims, clips string
		want               string // name:frames@fps per clip
	}{
		{"disjoint", turnA + "\n" + animXML("B", "b/rz.ANGLE", "0 1", "0 90", 1, ""), "", "default:3@2"},
		{"one", turnA, "", "A:3@2"},
		{"same value", turnA + "\n" + animXML("A2", "a/rz.ANGLE", "0 2", "0 90", 1, ""), "", "A:3@2 A2:2@0.5"},
		{"clip", turnA, `<animation_clip id="first" start="0" end="0.5"><instance_animation url="#A"/></animation_clip>`, "first:2@2"},
		{"clip and loose", turnA + "\n" + animXML("B", "b/rz.ANGLE", "0 1", "0 90", 1, ""),
			`<animation_clip id="c" name="walk" end="1"><instance_animation url="#A"/></animation_clip>`, "walk:3@2 B:2@1"},
		{"same names", turnA, `<animation_clip id="c1" name="x" end="1"><instance_animation url="#A"/></animation_clip>` +
			`<animation_clip id="c2" name="x" end="1"><instance_animation url="#A"/></animation_clip>`, "x:3@2 x_2:3@2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := arm()
			d.anims, d.clips = tc.anims, tc.clips
			sc, err := readDoc(t, d.String(), format.SceneOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range sc.Sequence.Clips {
				got = append(got, fmt.Sprintf("%s:%d@%g", c.Name, c.Len(), c.FPS))
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("clips %v, want %s", got, tc.want)
			}
		})
	}
}

// TestReadPrimitives: triangles, a polylist and polygons, each with a
// normal input beside the vertex one, make one mesh whose polygons stay
// whole and are fanned into triangles as mesh.New does.
func TestReadPrimitives(t *testing.T) {
	d := arm()
	d.pos = "0 0 0 1 0 0 1 1 0 0 1 0 0.5 1.5 0"
	d.prims = `<polylist count="1"><input semantic="VERTEX" source="#v" offset="0"/><input semantic="NORMAL" source="#n" offset="1"/><vcount>4</vcount><p>0 9 1 9 2 9 3 9</p></polylist>` + "\n" +
		`<polygons count="1"><input semantic="NORMAL" source="#n" offset="0"/><input semantic="VERTEX" source="#v" offset="1"/><p>9 0 9 1 9 2 9 4 9 3</p></polygons>` + "\n" +
		`<lines count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1</p></lines>` + "\n" +
		`<triangles count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 4</p></triangles>`
	d.vcount, d.v, d.weights = "1 1 1 1 1", "0 0 0 0 0 0 0 0 0 0", "1"
	sc, err := readDoc(t, d.String(), format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	polys := [][]int{{0, 1, 2, 3}, {0, 1, 2, 4, 3}, {0, 1, 4}}
	want, err := mesh.New(sc.Mesh.Verts, polys)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sc.Mesh.Tris, want.Tris) || !slices.Equal(sc.Mesh.PolyVerts, want.PolyVerts) || !slices.Equal(sc.Mesh.PolyStart, want.PolyStart) {
		t.Errorf("mesh polygons %v, triangles %v; want %v, %v", sc.Mesh.PolyVerts, sc.Mesh.Tris, want.PolyVerts, want.Tris)
	}
}

// TestReadJointLookup: joints named by SID are looked up under the
// instance's <skeleton>, so two characters with the same SIDs stay apart;
// without a <skeleton> that is ambiguous and refused; an IDREF_array
// names node IDs.
func TestReadJointLookup(t *testing.T) {
	character := func(id string) string {
		return fmt.Sprintf(`<node id="%[1]s"><node id="%[1]s-a" sid="a" type="JOINT"><rotate sid="rz">0 0 1 0</rotate>`+
			`<node id="%[1]s-b" sid="b" type="JOINT"><translate sid="t">1 0 0</translate></node></node></node>`, id)
	}
	d := arm()
	d.nodes = character("one") + "\n" + character("two")
	d.anims = animXML("turn", "two-a/rz.ANGLE", "0 1", "0 90", 1, "")
	moves := func(d doc141) (bool, error) {
		sc, err := readDoc(t, d.String(), format.SceneOptions{})
		if err != nil {
			return false, err
		}
		return sc.Sequence.FrameInto(nil, 1)[0] != sc.Mesh.Verts[0], nil
	}
	for _, tc := range []struct {
		skeleton, arr, joints string
		moves                 bool
		err                   string
	}{
		{"#two", "", "a b", true, ""},
		{"#one", "", "a b", false, ""},
		{"", "", "a b", false, `joint "a": nodes at lines`},
		{"", "IDREF_array", "two-a two-b", true, ""},
		{"", "IDREF_array", "a b", false, `joint "a": no node of the visual scene has that id`},
	} {
		d.skeleton, d.jointArr, d.joints = tc.skeleton, tc.arr, tc.joints
		got, err := moves(d)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("skeleton %q, %s %q: err %v, want %q", tc.skeleton, tc.arr, tc.joints, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.moves {
			t.Errorf("skeleton %q, %s %q: vertex 0 moves %v (%v), want %v", tc.skeleton, tc.arr, tc.joints, got, err, tc.moves)
		}
	}
}
