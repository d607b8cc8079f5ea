package collada

import (
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"

	"github.com/meshrig/meshrig/linalg"
)

// replay is what a reader gets from a written document, resolved through
// its IDs and SIDs the way a COLLADA importer does.
type replay struct {
	pos     []linalg.Vec3
	polys   [][]int
	joints  []string        // skin joint SIDs, in Name_array order
	ibm     []linalg.Affine // inverse bind matrix per skin joint
	infl    [][]jointWeight // per vertex
	parent  []int           // skin joint index of the parent node, -1 for the root
	rest    []linalg.Affine // local rest transform of each joint node
	clips   []replayClip
	polygon bool // written as polylist (else triangles)
}

type jointWeight struct {
	j int
	w float64
}

type replayClip struct {
	name       string
	start, end float64
	times      []float64
	local      [][]linalg.Affine // [joint][frame]
}

func parseFloats(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Fields(s) {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Fields(s) {
		x, err := strconv.Atoi(f)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

// affines reads row-major 4×4 matrices, refusing a bottom row that is not
// 0 0 0 1.
func affines(v []float64) ([]linalg.Affine, error) {
	if len(v)%16 != 0 {
		return nil, fmt.Errorf("%d floats is not a list of 4×4 matrices", len(v))
	}
	out := make([]linalg.Affine, len(v)/16)
	for k := range out {
		m := v[16*k : 16*k+16]
		if m[12] != 0 || m[13] != 0 || m[14] != 0 || m[15] != 1 {
			return nil, fmt.Errorf("matrix %d: bottom row %v", k, m[12:])
		}
		out[k] = linalg.Affine{M: linalg.Mat3{{m[0], m[1], m[2]}, {m[4], m[5], m[6]}, {m[8], m[9], m[10]}}, T: linalg.Vec3{m[3], m[7], m[11]}}
	}
	return out, nil
}

// floatsOf resolves a "#source" reference among sources, checking the
// accessor's count and stride against the array.
func floatsOf(sources []source, ref string) ([]float64, int, error) {
	for _, s := range sources {
		if "#"+s.ID != ref {
			continue
		}
		if s.Floats == nil || s.Access.Source != "#"+s.Floats.ID {
			return nil, 0, fmt.Errorf("source %s has no float_array behind its accessor", s.ID)
		}
		v, err := parseFloats(s.Floats.Data)
		if err != nil {
			return nil, 0, err
		}
		if len(v) != s.Floats.Count || s.Access.Count*s.Access.Stride != len(v) {
			return nil, 0, fmt.Errorf("source %s: %d floats, count %d, accessor %d×%d", s.ID, len(v), s.Floats.Count, s.Access.Count, s.Access.Stride)
		}
		return v, s.Access.Count, nil
	}
	return nil, 0, fmt.Errorf("no source %s", ref)
}

func inputOf(in []input, semantic string) (input, error) {
	for _, i := range in {
		if i.Semantic == semantic {
			return i, nil
		}
	}
	return input{}, fmt.Errorf("no %s input", semantic)
}

// decode parses a written document into a replay.
func decode(data []byte) (*replay, error) {
	var doc document
	if err := xml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if len(doc.Geometries) != 1 || len(doc.Controller) != 1 || len(doc.Scenes) != 1 {
		return nil, fmt.Errorf("%d geometries, %d controllers, %d scenes", len(doc.Geometries), len(doc.Controller), len(doc.Scenes))
	}
	var rp replay
	if err := rp.geometry(doc.Geometries[0]); err != nil {
		return nil, fmt.Errorf("geometry: %w", err)
	}
	if err := rp.skin(doc.Controller[0].Skin, "#"+doc.Geometries[0].ID); err != nil {
		return nil, fmt.Errorf("skin: %w", err)
	}
	nodes, err := rp.scene(doc.Scenes[0], "#"+doc.Controller[0].ID)
	if err != nil {
		return nil, fmt.Errorf("scene: %w", err)
	}
	if (doc.Animations == nil) != (doc.Clips == nil) {
		return nil, fmt.Errorf("animations without clips or clips without animations")
	}
	if doc.Animations == nil {
		return &rp, nil
	}
	if err := rp.animations(doc.Animations.List, doc.Clips.List, nodes); err != nil {
		return nil, fmt.Errorf("animations: %w", err)
	}
	return &rp, nil
}

func (rp *replay) geometry(g geometry) error {
	m := g.Mesh
	if m.Vertices.ID == "" || len(m.Vertices.Inputs) != 1 || m.Vertices.Inputs[0].Semantic != "POSITION" {
		return fmt.Errorf("vertices without one POSITION input")
	}
	pos, n, err := floatsOf(m.Sources, m.Vertices.Inputs[0].Source)
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		rp.pos = append(rp.pos, linalg.Vec3{pos[3*i], pos[3*i+1], pos[3*i+2]})
	}
	var inputs []input
	var vcount, p []int
	var count int
	switch {
	case len(m.Polylist) == 1 && len(m.Triangles) == 0:
		rp.polygon = true
		inputs, count = m.Polylist[0].Inputs, m.Polylist[0].Count
		if vcount, err = parseInts(m.Polylist[0].VCount); err != nil {
			return err
		}
		if p, err = parseInts(m.Polylist[0].P); err != nil {
			return err
		}
	case len(m.Triangles) == 1 && len(m.Polylist) == 0:
		inputs, count = m.Triangles[0].Inputs, m.Triangles[0].Count
		for range count {
			vcount = append(vcount, 3)
		}
		if p, err = parseInts(m.Triangles[0].P); err != nil {
			return err
		}
	default:
		return fmt.Errorf("want exactly one of polylist and triangles")
	}
	if v, err := inputOf(inputs, "VERTEX"); err != nil || v.Source != "#"+m.Vertices.ID || *v.Offset != 0 {
		return fmt.Errorf("VERTEX input %+v %v", v, err)
	}
	nrmIn, err := inputOf(inputs, "NORMAL")
	if err != nil || *nrmIn.Offset != 1 {
		return fmt.Errorf("NORMAL input %+v %v", nrmIn, err)
	}
	nrm, nn, err := floatsOf(m.Sources, nrmIn.Source)
	if err != nil || nn != n {
		return fmt.Errorf("%d normals for %d vertices: %v", nn, n, err)
	}
	for i := 0; i < nn; i++ {
		if l := (linalg.Vec3{nrm[3*i], nrm[3*i+1], nrm[3*i+2]}).Norm(); l < 1-1e-6 || l > 1+1e-6 {
			return fmt.Errorf("normal %d has length %v", i, l)
		}
	}
	if len(vcount) != count {
		return fmt.Errorf("count %d, %d vcounts", count, len(vcount))
	}
	at := 0
	for _, c := range vcount {
		if at+2*c > len(p) {
			return fmt.Errorf("p too short")
		}
		poly := make([]int, c)
		for k := range poly {
			poly[k] = p[at+2*k]
			if p[at+2*k+1] != poly[k] || poly[k] < 0 || poly[k] >= n {
				return fmt.Errorf("corner %d: vertex %d, normal %d", at/2+k, poly[k], p[at+2*k+1])
			}
		}
		rp.polys = append(rp.polys, poly)
		at += 2 * c
	}
	if at != len(p) {
		return fmt.Errorf("%d indices left in p", len(p)-at)
	}
	return nil
}

func (rp *replay) skin(sk skin, geom string) error {
	if sk.Source != geom {
		return fmt.Errorf("skins %s, not %s", sk.Source, geom)
	}
	bind, err := parseFloats(sk.BindShape)
	if err != nil {
		return err
	}
	if b, err := affines(bind); err != nil || len(b) != 1 || b[0] != linalg.IdentityAffine() {
		return fmt.Errorf("bind shape matrix %v %v", bind, err)
	}
	jin, err := inputOf(sk.Joints.Inputs, "JOINT")
	if err != nil {
		return err
	}
	for _, s := range sk.Sources {
		if "#"+s.ID == jin.Source && s.Names != nil {
			rp.joints = strings.Fields(s.Names.Data)
		}
	}
	ibmIn, err := inputOf(sk.Joints.Inputs, "INV_BIND_MATRIX")
	if err != nil {
		return err
	}
	v, n, err := floatsOf(sk.Sources, ibmIn.Source)
	if err != nil {
		return err
	}
	if rp.ibm, err = affines(v); err != nil || n != len(rp.joints) {
		return fmt.Errorf("%d inverse bind matrices for %d joints: %v", n, len(rp.joints), err)
	}
	vw := sk.VertexWeights
	if wj, err := inputOf(vw.Inputs, "JOINT"); err != nil || wj.Source != jin.Source || *wj.Offset != 0 {
		return fmt.Errorf("vertex_weights JOINT input %+v %v", wj, err)
	}
	win, err := inputOf(vw.Inputs, "WEIGHT")
	if err != nil || *win.Offset != 1 {
		return fmt.Errorf("vertex_weights WEIGHT input %+v %v", win, err)
	}
	weights, _, err := floatsOf(sk.Sources, win.Source)
	if err != nil {
		return err
	}
	vc, err := parseInts(vw.VCount)
	if err != nil {
		return err
	}
	pairs, err := parseInts(vw.V)
	if err != nil {
		return err
	}
	if len(vc) != vw.Count || vw.Count != len(rp.pos) {
		return fmt.Errorf("%d vcounts, count %d, %d vertices", len(vc), vw.Count, len(rp.pos))
	}
	at := 0
	for _, c := range vc {
		var in []jointWeight
		for range c {
			if at+2 > len(pairs) {
				return fmt.Errorf("v too short")
			}
			j, w := pairs[at], pairs[at+1]
			if j < 0 || j >= len(rp.joints) || w < 0 || w >= len(weights) {
				return fmt.Errorf("pair %d: joint %d weight %d out of range", at/2, j, w)
			}
			in = append(in, jointWeight{j, weights[w]})
			at += 2
		}
		rp.infl = append(rp.infl, in)
	}
	if at != len(pairs) {
		return fmt.Errorf("%d indices left in v", len(pairs)-at)
	}
	return nil
}

// scene reads the joint hierarchy, returning the skin joint index of
// every JOINT node by node ID.
func (rp *replay) scene(vs visualScene, ctrl string) (map[string]int, error) {
	index := map[string]int{}
	for j, sid := range rp.joints {
		index[sid] = j
	}
	byID := map[string]int{}
	rp.parent = make([]int, len(rp.joints))
	rp.rest = make([]linalg.Affine, len(rp.joints))
	seen := make([]bool, len(rp.joints))
	var skeleton string
	var walk func(n node, parent int) error
	walk = func(n node, parent int) error {
		if n.Controller != nil {
			if n.Controller.URL != ctrl {
				return fmt.Errorf("node %s instances %s", n.ID, n.Controller.URL)
			}
			skeleton = n.Controller.Skeleton
		}
		if n.Type == "JOINT" {
			j, ok := index[n.SID]
			if !ok || seen[j] {
				return fmt.Errorf("joint node %s: sid %q not a skin joint or repeated", n.ID, n.SID)
			}
			seen[j] = true
			byID[n.ID] = j
			rp.parent[j] = parent
			if n.Matrix == nil || n.Matrix.SID != "transform" {
				return fmt.Errorf("joint node %s has no matrix transform", n.ID)
			}
			v, err := parseFloats(n.Matrix.Data)
			if err != nil {
				return err
			}
			m, err := affines(v)
			if err != nil || len(m) != 1 {
				return fmt.Errorf("joint node %s: matrix %v", n.ID, err)
			}
			rp.rest[j] = m[0]
			parent = j
		}
		for _, c := range n.Children {
			if err := walk(c, parent); err != nil {
				return err
			}
		}
		return nil
	}
	for _, n := range vs.Nodes {
		if err := walk(n, -1); err != nil {
			return nil, err
		}
	}
	for j, ok := range seen {
		if !ok {
			return nil, fmt.Errorf("skin joint %s has no node", rp.joints[j])
		}
	}
	if r, ok := byID[strings.TrimPrefix(skeleton, "#")]; !ok || rp.parent[r] != -1 {
		return nil, fmt.Errorf("skeleton %q is not the root joint node", skeleton)
	}
	return byID, nil
}

func (rp *replay) animations(anims []animation, clips []animationClip, nodes map[string]int) error {
	if len(anims) != len(clips) {
		return fmt.Errorf("%d animations for %d clips", len(anims), len(clips))
	}
	for c, cl := range clips {
		if len(cl.Instances) != 1 || cl.Instances[0].URL != "#"+anims[c].ID {
			return fmt.Errorf("clip %s does not instance animation %s", cl.ID, anims[c].ID)
		}
		a := anims[c]
		rc := replayClip{name: cl.Name, start: float64(cl.Start), end: float64(cl.End), local: make([][]linalg.Affine, len(rp.joints))}
		if len(a.Channels) != len(rp.joints) {
			return fmt.Errorf("animation %s: %d channels for %d joints", a.ID, len(a.Channels), len(rp.joints))
		}
		for _, ch := range a.Channels {
			id, sid, ok := strings.Cut(ch.Target, "/")
			j, known := nodes[id]
			if !ok || !known || sid != "transform" {
				return fmt.Errorf("channel target %q is not a joint matrix", ch.Target)
			}
			var s *sampler
			for k := range a.Samplers {
				if "#"+a.Samplers[k].ID == ch.Source {
					s = &a.Samplers[k]
				}
			}
			if s == nil {
				return fmt.Errorf("channel %s: no sampler %s", ch.Target, ch.Source)
			}
			in, err := inputOf(s.Inputs, "INPUT")
			if err != nil {
				return err
			}
			times, nt, err := floatsOf(a.Sources, in.Source)
			if err != nil {
				return err
			}
			out, err := inputOf(s.Inputs, "OUTPUT")
			if err != nil {
				return err
			}
			v, nv, err := floatsOf(a.Sources, out.Source)
			if err != nil || nv != nt {
				return fmt.Errorf("channel %s: %d outputs for %d times: %v", ch.Target, nv, nt, err)
			}
			interp, err := inputOf(s.Inputs, "INTERPOLATION")
			if err != nil {
				return err
			}
			for _, src := range a.Sources {
				if "#"+src.ID == interp.Source && (src.Names == nil || strings.Count(src.Names.Data, "LINEAR") != nt) {
					return fmt.Errorf("channel %s: interpolation is not LINEAR per key", ch.Target)
				}
			}
			if rc.local[j] != nil {
				return fmt.Errorf("joint %s animated twice", rp.joints[j])
			}
			if rc.local[j], err = affines(v); err != nil {
				return err
			}
			rc.times = times
		}
		rp.clips = append(rp.clips, rc)
	}
	return nil
}

// global composes the local transforms of every joint at one frame (or
// the rest pose when frame < 0) down the hierarchy.
func (rp *replay) global(c, frame int) []linalg.Affine {
	g := make([]linalg.Affine, len(rp.joints))
	done := make([]bool, len(g))
	var at func(j int) linalg.Affine
	at = func(j int) linalg.Affine {
		if done[j] {
			return g[j]
		}
		l := rp.rest[j]
		if frame >= 0 {
			l = rp.clips[c].local[j][frame]
		}
		if p := rp.parent[j]; p >= 0 {
			l = at(p).Mul(l)
		}
		g[j], done[j] = l, true
		return l
	}
	for j := range g {
		at(j)
	}
	return g
}

// skinAt applies linear blend skinning with the written weights and the
// written joint transforms at a frame (or the rest pose for frame < 0).
func (rp *replay) skinAt(c, frame int) []linalg.Vec3 {
	g := rp.global(c, frame)
	out := make([]linalg.Vec3, len(rp.pos))
	for i, p := range rp.pos {
		for _, x := range rp.infl[i] {
			out[i] = out[i].Add(g[x.j].Mul(rp.ibm[x.j]).Apply(p).Scale(x.w))
		}
	}
	return out
}
