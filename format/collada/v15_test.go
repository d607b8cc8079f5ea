package collada

import (
	"bytes"
	"encoding/xml"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

func write15(tb testing.TB, r *rig.Rig, limits map[rig.JointID]Limits) []byte {
	tb.Helper()
	var buf bytes.Buffer
	if err := Write15(&buf, r, limits); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// TestWrite15Replays: the 1.5 document's visual part replays like the
// 1.4.1 one — every frame of every clip, skinned from the written
// weights, inverse bind matrices and joint matrices, within 1e-6·d, and
// the bind pose leaves the mesh in place.
func TestWrite15Replays(t *testing.T) {
	for name, r := range testRigs(t) {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, r, format.WriteOptions{Version: "1.5"}); err != nil {
				t.Fatal(err)
			}
			data := buf.Bytes()
			if !bytes.Contains(data, []byte(`xmlns="http://www.collada.org/2008/03/COLLADASchema" version="1.5.0"`)) {
				t.Fatal("not a COLLADA 1.5 root element")
			}
			rp, err := decode(data)
			if err != nil {
				t.Fatal(err)
			}
			if len(rp.clips) != len(r.Clips) || len(rp.joints) != r.Skeleton.Len() {
				t.Fatalf("%d clips, %d joints", len(rp.clips), len(rp.joints))
			}
			d := mesh.Diagonal(r.Mesh.Verts)
			var worst float64
			for c, cl := range r.Clips {
				for f := range cl.Frames {
					want := r.Frame(nil, c, f)
					for i, p := range rp.skinAt(c, f) {
						worst = math.Max(worst, p.Dist(want[i])/d)
					}
				}
			}
			for i, p := range rp.skinAt(0, -1) {
				worst = math.Max(worst, p.Dist(r.Mesh.Verts[i])/d)
			}
			if worst > 1e-6 {
				t.Fatalf("replayed frames off by up to %.3g·d", worst)
			}
			if err := checkReferences15(data); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// kinematics15 reads the kinematics part of a written document back: for
// every joint, its parent link's joint and the attachment translation,
// its axes and limits, resolving every SID reference on the way.
type kinJoint struct {
	parent    string // joint ID of the parent link ("" for the base)
	translate linalg.Vec3
	axes      []revolute
	bound     int // bind_joint_axis entries resolving to its axes
}

func kinematics15(data []byte) (map[string]*kinJoint, string, error) {
	var doc document15
	if err := xml.Unmarshal(data, &doc); err != nil {
		return nil, "", err
	}
	if len(doc.KinematicsModels) != 1 || len(doc.KinematicsScenes) != 1 {
		return nil, "", errors.New("want one kinematics model and scene")
	}
	model, ks := doc.KinematicsModels[0], doc.KinematicsScenes[0]
	defs := map[string]jointDef{}
	if doc.Joints != nil {
		for _, d := range doc.Joints.List {
			defs["#"+d.ID] = d
		}
	}
	bySID := map[string]jointDef{}
	for _, in := range model.Instances {
		d, ok := defs[in.URL]
		if !ok {
			return nil, "", errors.New("instance_joint " + in.URL + " names no joint")
		}
		bySID[in.SID] = d
	}
	out := map[string]*kinJoint{}
	var walk func(l link, parent string) error
	walk = func(l link, parent string) error {
		for _, a := range l.Attachments {
			sid, ok := strings.CutPrefix(a.Joint, model.ID+"/")
			d, known := bySID[sid]
			if !ok || !known {
				return errors.New("attachment joint " + a.Joint + " does not resolve")
			}
			v, err := parseFloats(a.Translate)
			if err != nil || len(v) != 3 {
				return errors.New("attachment translate " + a.Translate)
			}
			out[sid] = &kinJoint{parent: parent, translate: linalg.Vec3{v[0], v[1], v[2]}, axes: d.Revolutes}
			if err := walk(a.Link, sid); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(model.Link, ""); err != nil {
		return nil, "", err
	}
	if ks.Model.URL != "#"+model.ID {
		return nil, "", errors.New("kinematics scene instances " + ks.Model.URL)
	}
	bind := doc.Scene.Kinematics
	if bind.URL != "#"+ks.ID || bind.Model.SIDREF != ks.ID+"/"+ks.Model.SID {
		return nil, "", errors.New("scene binding " + bind.URL + " " + bind.Model.SIDREF)
	}
	// Joint nodes by ID with their rotate SIDs.
	rotates := map[string]string{}
	var nodes func(ns []node)
	nodes = func(ns []node) {
		for _, nd := range ns {
			for _, r := range nd.Rotates {
				rotates[nd.ID+"/"+r.SID] = r.Data
			}
			nodes(nd.Children)
		}
	}
	nodes(doc.Scenes[0].Nodes)
	for _, b := range bind.Axes {
		rest, ok := strings.CutPrefix(b.Axis, ks.ID+"/"+ks.Model.SID+"/")
		sid, axis, ok2 := strings.Cut(rest, "/")
		kj := out[sid]
		if !ok || !ok2 || kj == nil {
			return nil, "", errors.New("axis " + b.Axis + " does not resolve")
		}
		var dir string
		for _, a := range kj.axes {
			if a.SID == axis {
				dir = a.Axis
			}
		}
		// The bound rotate turns about the same axis, at the value given.
		if dir == "" || rotates[b.Target] != dir+" "+strconv.FormatFloat(b.Value, 'g', -1, 64) {
			return nil, "", errors.New("axis " + b.Axis + " bound to " + b.Target + " = " + rotates[b.Target])
		}
		kj.bound++
	}
	return out, bind.Model.Node, nil
}

// TestWrite15Kinematics: the kinematics model mirrors the skeleton — a
// joint of three revolute axes per non-root joint, attached to its
// parent's link at the rest offset, each axis bound to a rotate of the
// joint's node — and carries limits only where given.
func TestWrite15Kinematics(t *testing.T) {
	r := chainRig(t, 5, 8, 4, 2, 1, false)
	r.Skeleton.Joints[3].Parent = 1 // a branch: 1 has two children
	r.Skeleton.Joints[4].Parent = 3
	r.Clips = nil
	limits := map[rig.JointID]Limits{2: {Min: [3]float64{-10, -20, -30}, Max: [3]float64{10, 20, 30.5}}}
	kin, base, err := kinematics15(write15(t, r, limits))
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, r.Skeleton.Len())
	for j, jt := range r.Skeleton.Joints {
		names[j] = jt.Name
	}
	jids := jointIDs(names, namer{})
	if base != jids[0] || len(kin) != r.Skeleton.Len()-1 {
		t.Fatalf("base bound to %q, %d joints", base, len(kin))
	}
	for j, jt := range r.Skeleton.Joints[1:] {
		j++
		kj := kin[jids[j]]
		parent := ""
		if jt.Parent > 0 {
			parent = jids[jt.Parent]
		}
		if kj == nil || kj.parent != parent || kj.translate.Dist(r.Skeleton.Offset(rig.JointID(j))) > 1e-9 || len(kj.axes) != 3 || kj.bound != 3 {
			t.Fatalf("joint %s: %+v", jids[j], kj)
		}
		for k, a := range kj.axes {
			l, limited := limits[rig.JointID(j)]
			switch {
			case !limited && a.Limits != nil:
				t.Errorf("joint %s axis %s has limits %v", jids[j], a.SID, *a.Limits)
			case limited && (a.Limits == nil || float64(a.Limits.Min) != l.Min[k] || float64(a.Limits.Max) != l.Max[k]):
				t.Errorf("joint %s axis %s limits %v, want %v–%v", jids[j], a.SID, a.Limits, l.Min[k], l.Max[k])
			}
		}
	}
	// One joint: a base link, no joint library (it may not be empty).
	one := chainRig(t, 1, 2, 4, 2, 1, true)
	data := write15(t, one, nil)
	if bytes.Contains(data, []byte("library_joints")) {
		t.Error("empty library_joints written")
	}
	if kin, _, err := kinematics15(data); err != nil || len(kin) != 0 {
		t.Errorf("one joint: %v, %d joints", err, len(kin))
	}
}

func TestWrite15RefusesBadLimits(t *testing.T) {
	r := chainRig(t, 3, 2, 4, 2, 1, true)
	for name, l := range map[string]map[rig.JointID]Limits{
		"root":     {0: {}},
		"missing":  {3: {}},
		"inverted": {1: {Min: [3]float64{0, 5, 0}, Max: [3]float64{0, 4, 0}}},
		"nan":      {2: {Min: [3]float64{math.NaN()}}},
		"infinite": {2: {Max: [3]float64{0, 0, math.Inf(1)}}},
	} {
		var buf bytes.Buffer
		if err := Write15(&buf, r, l); err == nil || buf.Len() > 0 {
			t.Errorf("%s: %v, %d bytes written", name, err, buf.Len())
		}
	}
}

// checkReferences15 is checkReferences for 1.5: IDs unique plain
// NCNames; url, source and skeleton references name an ID; channel and
// axis targets name a node ID and a transform SID.
func checkReferences15(data []byte) error {
	var doc document15
	if err := xml.Unmarshal(data, &doc); err != nil {
		return err
	}
	ids := map[string]bool{}
	for _, m := range regexp.MustCompile(` id="([^"]*)"`).FindAllSubmatch(data, -1) {
		id := string(m[1])
		if ids[id] || id != ncname(id, "") {
			return errors.New("id " + id + " repeated or not a plain NCName")
		}
		ids[id] = true
	}
	for _, m := range regexp.MustCompile(`(?:url|source)="#([^"]*)"|<skeleton>#([^<]*)<`).FindAllSubmatch(data, -1) {
		if id := string(m[1]) + string(m[2]); !ids[id] {
			return errors.New("reference #" + id + " names no element")
		}
	}
	for _, m := range regexp.MustCompile(`target="([^"/]*)/([^"]*)"`).FindAllSubmatch(data, -1) {
		id, sid := string(m[1]), string(m[2])
		if !ids[id] || (sid != "transform" && !strings.HasPrefix(sid, "rotate")) {
			return errors.New("target " + id + "/" + sid)
		}
	}
	return nil
}

// TestGolden15 keeps a small 1.5 document in testdata and checks the
// output is stable. Run with -update after an intended change.
func TestGolden15(t *testing.T) {
	r := chainRig(t, 3, 2, 4, 2, 1, true)
	lim := map[rig.JointID]Limits{1: {Min: [3]float64{-45, -90, -120}, Max: [3]float64{45, 90, 120}}}
	got := write15(t, r, lim)
	path := filepath.Join("testdata", "chain15.dae")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("output differs from %s (rerun with -update if intended)", path)
	}
}

// TestAssimpReads15: assimp 5.x imports COLLADA 1.5 (it skips the
// kinematics libraries): one mesh, a vertex per polygon corner, the
// polygons, a bone per weighted joint, one animation per clip with a
// channel per joint — and, from its dump, the same animation keys and
// bone offsets as the rig, so the rotate elements the kinematics binding
// adds to joint nodes change nothing.
func TestAssimpReads15(t *testing.T) {
	_, err := exec.LookPath("assimp")
	shareddata.RequireTool(t, err == nil, "assimp (Debian package assimp-utils)")
	dir := t.TempDir()
	for name, r := range testRigs(t) {
		t.Run(name, func(t *testing.T) {
			p, dump := filepath.Join(dir, name+".dae"), filepath.Join(dir, name+".assxml")
			if err := format.WriteFile(p, r, format.WriteOptions{Version: "1.5"}); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command("assimp", "info", p, "-r").CombinedOutput()
			if err != nil {
				t.Fatalf("assimp failed: %v\n%s", err, out)
			}
			weighted := map[rig.JointID]bool{}
			for _, in := range r.Skin {
				for k, w := range in.Weight {
					if w > 0 {
						weighted[in.Joint[k]] = true
					}
				}
			}
			corners := 0
			for k := 0; k < r.Mesh.NumPolys(); k++ {
				corners += len(r.Mesh.Poly(k))
			}
			want := map[string]int{"Meshes": 1, "Vertices": corners, "Faces": r.Mesh.NumPolys(), "Bones": len(weighted),
				"Animations": len(r.Clips), "Animation Channels": len(r.Clips) * r.Skeleton.Len()}
			for label, n := range want {
				m := regexp.MustCompile(`(?m)^` + label + `:\s+(\d+)`).FindSubmatch(out)
				if m == nil {
					t.Fatalf("assimp printed no %q:\n%s", label, out)
				}
				if got, _ := strconv.Atoi(string(m[1])); got != n {
					t.Errorf("assimp %s: %d, want %d", label, got, n)
				}
			}
			if out, err := exec.Command("assimp", "dump", p, dump, "-r").CombinedOutput(); err != nil {
				t.Fatalf("assimp dump failed: %v\n%s", err, out)
			}
			data, err := os.ReadFile(dump)
			if err != nil {
				t.Fatal(err)
			}
			var got assxml
			if err := xml.Unmarshal(data, &got); err != nil {
				t.Fatal(err)
			}
			names := make([]string, r.Skeleton.Len())
			for j, jt := range r.Skeleton.Joints {
				names[j] = jt.Name
			}
			joint := map[string]int{}
			for j, id := range jointIDs(names, namer{}) {
				joint[id], joint[names[j]] = j, j
			}
			const tol = 2e-6
			nj := r.Skeleton.Len()
			if len(got.Animations) != len(r.Clips) {
				t.Fatalf("assimp dumps %d animations", len(got.Animations))
			}
			for c, cl := range r.Clips {
				for _, na := range got.Animations[c].Nodes {
					j, ok := joint[na.Node]
					if !ok || len(na.Positions) != cl.Frames || len(na.Rotations) != cl.Frames {
						t.Fatalf("clip %d: node %q with %d/%d keys", c, na.Node, len(na.Positions), len(na.Rotations))
					}
					for f := range cl.Frames {
						tr, q := cl.Translation[f*nj+j], cl.Rotation[f*nj+j].Normalize()
						pos, _ := parseFloats(na.Positions[f].Value)
						rot, _ := parseFloats(na.Rotations[f].Value)
						if len(pos) != 3 || len(rot) != 4 || tr.Dist(linalg.Vec3{pos[0], pos[1], pos[2]}) > tol*(1+tr.Norm()) ||
							math.Abs(q.X*rot[0]+q.Y*rot[1]+q.Z*rot[2]+q.W*rot[3]) < 1-tol {
							t.Fatalf("clip %d frame %d joint %s: %v %v, want %v %v", c, f, na.Node, pos, rot, tr, q)
						}
					}
				}
			}
			for _, b := range got.Bones {
				m, _ := parseFloats(b.Matrix)
				want := affineRows(linalg.Translation(r.Skeleton.Joints[joint[b.Name]].Head.Scale(-1)))
				for k := range want {
					if len(m) != 16 || math.Abs(m[k]-want[k]) > tol*(1+math.Abs(want[k])) {
						t.Fatalf("bone %s offset %v, want %v", b.Name, m, want)
					}
				}
			}
			t.Logf("%s: assimp reports %v", name, want)
		})
	}
}
