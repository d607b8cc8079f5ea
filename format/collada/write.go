package collada

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

func init() {
	format.Register(format.Format{Name: "collada", Exts: []string{".dae"}, Write: Write})
}

// timestamp is the asset date written: fixed, so output is reproducible.
const timestamp = "2026-01-01T00:00:00Z"

// Write writes r as COLLADA. opt.Version "" and "1.4.1" are supported.
func Write(w io.Writer, r *rig.Rig, opt format.WriteOptions) error {
	if opt.Version != "" && opt.Version != "1.4.1" {
		return fmt.Errorf("COLLADA %q: %w (meshrig writes 1.4.1)", opt.Version, format.ErrUnsupported)
	}
	if err := r.Validate(); err != nil {
		return err
	}
	ids := jointIDs(&r.Skeleton)
	doc := document{
		Xmlns:   "http://www.collada.org/2005/11/COLLADASchema",
		Version: "1.4.1",
		Asset: asset{Tool: "meshrig", Created: timestamp, Modified: timestamp,
			Unit: unit{Name: "meter", Meter: 1}, UpAxis: "Y_UP"},
		Geometries: []geometry{geometryOf(r.Mesh)},
		Controller: []controller{controllerOf(r, ids)},
		Scenes:     []visualScene{sceneOf(r, ids)},
		Scene:      sceneInstance{Visual: instance{URL: "#scene"}},
	}
	doc.Animations, doc.Clips = animationsOf(r, ids)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", " ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// jointIDs returns an XML ID (and SID) for every joint: its name made a
// valid NCName, made unique.
func jointIDs(s *rig.Skeleton) []string {
	seen := map[string]bool{}
	out := make([]string, s.Len())
	for j, jt := range s.Joints {
		id := ncname(jt.Name)
		for seen[id] {
			id += "_"
		}
		seen[id] = true
		out[j] = id
	}
	return out
}

// ncname replaces what an XML NCName may not hold.
func ncname(s string) string {
	var b strings.Builder
	for i, c := range s {
		ok := c == '_' || c == '-' || c == '.' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
		if i == 0 && (c == '-' || c == '.' || (c >= '0' && c <= '9')) {
			b.WriteString("j_")
		}
		if ok {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "joint"
	}
	return b.String()
}

func geometryOf(m *mesh.Mesh) geometry {
	n := len(m.Verts)
	normals := mesh.VertexNormals(m.Verts, m.Tris)
	pos := source{ID: "mesh-positions", Floats: &floatArr{ID: "mesh-positions-array", Count: 3 * n, Data: vecs(m.Verts)},
		Access: xyz("#mesh-positions-array", n)}
	nrm := source{ID: "mesh-normals", Floats: &floatArr{ID: "mesh-normals-array", Count: 3 * n, Data: vecs(normals)},
		Access: xyz("#mesh-normals-array", n)}
	zero, one := 0, 1
	inputs := []input{{Semantic: "VERTEX", Source: "#mesh-vertices", Offset: &zero}, {Semantic: "NORMAL", Source: "#mesh-normals", Offset: &one}}
	el := meshEl{
		Sources:  []source{pos, nrm},
		Vertices: vertices{ID: "mesh-vertices", Inputs: []input{{Semantic: "POSITION", Source: "#mesh-positions"}}},
	}
	var vc, p strings.Builder
	for k := 0; k < m.NumPolys(); k++ {
		poly := m.Poly(k)
		vc.WriteString(strconv.Itoa(len(poly)))
		vc.WriteByte(' ')
		for _, i := range poly {
			s := strconv.Itoa(i)
			p.WriteString(s)
			p.WriteByte(' ')
			p.WriteString(s) // the vertex's own normal
			p.WriteByte(' ')
		}
	}
	if m.PolyStart == nil {
		el.Triangles = &triangles{Count: len(m.Tris), Inputs: inputs, P: strings.TrimSpace(p.String())}
	} else {
		el.Polylist = &polylist{Count: m.NumPolys(), Inputs: inputs, VCount: strings.TrimSpace(vc.String()), P: strings.TrimSpace(p.String())}
	}
	return geometry{ID: "mesh", Name: "mesh", Mesh: el}
}

func controllerOf(r *rig.Rig, ids []string) controller {
	nj := r.Skeleton.Len()
	var ibm strings.Builder
	for _, jt := range r.Skeleton.Joints {
		ibm.WriteString(matrix(linalg.Translation(jt.Head.Scale(-1))))
		ibm.WriteByte(' ')
	}
	var weights []float64
	var vc, v strings.Builder
	for _, in := range r.Skin {
		k := 0
		for s, w := range in.Weight {
			if w <= 0 {
				continue
			}
			k++
			fmt.Fprintf(&v, "%d %d ", in.Joint[s], len(weights))
			weights = append(weights, w)
		}
		fmt.Fprintf(&vc, "%d ", k)
	}
	zero, one := 0, 1
	return controller{ID: "skin", Name: "skin", Skin: skin{
		Source:    "#mesh",
		BindShape: matrix(linalg.IdentityAffine()),
		Sources: []source{
			{ID: "skin-joints", Names: &nameArr{ID: "skin-joints-array", Count: nj, Data: strings.Join(ids, " ")},
				Access: accessorEl{Source: "#skin-joints-array", Count: nj, Stride: 1, Params: []param{{"JOINT", "name"}}}},
			{ID: "skin-bind-poses", Floats: &floatArr{ID: "skin-bind-poses-array", Count: 16 * nj, Data: strings.TrimSpace(ibm.String())},
				Access: accessorEl{Source: "#skin-bind-poses-array", Count: nj, Stride: 16, Params: []param{{"TRANSFORM", "float4x4"}}}},
			{ID: "skin-weights", Floats: &floatArr{ID: "skin-weights-array", Count: len(weights), Data: floats(weights)},
				Access: accessorEl{Source: "#skin-weights-array", Count: len(weights), Stride: 1, Params: []param{{"WEIGHT", "float"}}}},
		},
		Joints: jointsEl{Inputs: []input{{Semantic: "JOINT", Source: "#skin-joints"}, {Semantic: "INV_BIND_MATRIX", Source: "#skin-bind-poses"}}},
		VertexWeights: vertexWeights{Count: len(r.Skin),
			Inputs: []input{{Semantic: "JOINT", Source: "#skin-joints", Offset: &zero}, {Semantic: "WEIGHT", Source: "#skin-weights", Offset: &one}},
			VCount: strings.TrimSpace(vc.String()), V: strings.TrimSpace(v.String())},
	}}
}

// sceneOf builds the joint hierarchy (rest transforms: translations by
// the offsets) and the node instancing the skinned mesh.
func sceneOf(r *rig.Rig, ids []string) visualScene {
	nodes := make([]node, r.Skeleton.Len())
	for j := range r.Skeleton.Joints {
		nodes[j] = node{ID: ids[j], SID: ids[j], Name: r.Skeleton.Joints[j].Name, Type: "JOINT",
			Matrix: &matrixEl{SID: "transform", Data: matrix(linalg.Translation(r.Skeleton.Offset(rig.JointID(j))))}}
	}
	// Children are listed after their parents: attach from the last up.
	for j := r.Skeleton.Len() - 1; j > 0; j-- {
		p := r.Skeleton.Joints[j].Parent
		nodes[p].Children = append([]node{nodes[j]}, nodes[p].Children...)
	}
	return visualScene{ID: "scene", Name: "scene", Nodes: []node{
		nodes[0],
		{ID: "mesh-node", Name: "mesh", Type: "NODE", Controller: &instanceController{URL: "#skin", Skeleton: "#" + ids[0]}},
	}}
}

// animationsOf samples every clip's local joint matrices: one animation
// per clip holding one per joint, and a clip entry naming them.
func animationsOf(r *rig.Rig, ids []string) ([]animation, []animationClip) {
	var anims []animation
	var clips []animationClip
	nj := r.Skeleton.Len()
	for c := range r.Clips {
		cl := &r.Clips[c]
		cid := fmt.Sprintf("clip%d-%s", c, ncname(cl.Name))
		times := make([]float64, cl.Frames)
		for f := range times {
			times[f] = float64(f) / cl.FPS
		}
		group := animation{ID: cid, Name: cl.Name}
		for j := 0; j < nj; j++ {
			aid := cid + "-" + ids[j]
			var out strings.Builder
			for f := 0; f < cl.Frames; f++ {
				out.WriteString(matrix(linalg.Rigid(cl.Rotation[f*nj+j], cl.Translation[f*nj+j])))
				out.WriteByte(' ')
			}
			interp := strings.TrimSpace(strings.Repeat("LINEAR ", cl.Frames))
			group.Children = append(group.Children, animation{
				ID: aid,
				Sources: []source{
					{ID: aid + "-input", Floats: &floatArr{ID: aid + "-input-array", Count: cl.Frames, Data: floats(times)},
						Access: accessorEl{Source: "#" + aid + "-input-array", Count: cl.Frames, Stride: 1, Params: []param{{"TIME", "float"}}}},
					{ID: aid + "-output", Floats: &floatArr{ID: aid + "-output-array", Count: 16 * cl.Frames, Data: strings.TrimSpace(out.String())},
						Access: accessorEl{Source: "#" + aid + "-output-array", Count: cl.Frames, Stride: 16, Params: []param{{"TRANSFORM", "float4x4"}}}},
					{ID: aid + "-interpolation", Names: &nameArr{ID: aid + "-interpolation-array", Count: cl.Frames, Data: interp},
						Access: accessorEl{Source: "#" + aid + "-interpolation-array", Count: cl.Frames, Stride: 1, Params: []param{{"INTERPOLATION", "name"}}}},
				},
				Sampler: &sampler{ID: aid + "-sampler", Inputs: []input{
					{Semantic: "INPUT", Source: "#" + aid + "-input"},
					{Semantic: "OUTPUT", Source: "#" + aid + "-output"},
					{Semantic: "INTERPOLATION", Source: "#" + aid + "-interpolation"},
				}},
				Channel: &channel{Source: "#" + aid + "-sampler", Target: ids[j] + "/transform"},
			})
		}
		anims = append(anims, group)
		clips = append(clips, animationClip{ID: cid + "-clip", Name: cl.Name, Start: 0, End: times[len(times)-1],
			Instances: []instance{{URL: "#" + cid}}})
	}
	return anims, clips
}

// matrix writes an affine transform as COLLADA's row-major 4×4.
func matrix(a linalg.Affine) string {
	v := []float64{
		a.M[0][0], a.M[0][1], a.M[0][2], a.T[0],
		a.M[1][0], a.M[1][1], a.M[1][2], a.T[1],
		a.M[2][0], a.M[2][1], a.M[2][2], a.T[2],
		0, 0, 0, 1,
	}
	return floats(v)
}

func floats(v []float64) string {
	b := make([]byte, 0, 12*len(v))
	for k, x := range v {
		if k > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendFloat(b, x, 'g', 9, 64)
	}
	return string(b)
}

func vecs(v []linalg.Vec3) string {
	f := make([]float64, 0, 3*len(v))
	for _, p := range v {
		f = append(f, p[0], p[1], p[2])
	}
	return floats(f)
}

func xyz(src string, n int) accessorEl {
	return accessorEl{Source: src, Count: n, Stride: 3, Params: []param{{"X", "float"}, {"Y", "float"}, {"Z", "float"}}}
}
