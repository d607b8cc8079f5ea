package collada

import (
	"strings"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// controllerOf writes the skin of the geometry geomID: an identity bind
// shape, the joints by SID with their inverse bind matrices (every
// joint's rest orientation is the identity, so each is the translation by
// −Head), the distinct weights, and per vertex its non-zero influences.
func controllerOf(r *rig.Rig, jids []string, geomID string, n namer) controller {
	id := n.take("skin", "", "-joints", "-joints-array", "-bind-poses", "-bind-poses-array", "-weights", "-weights-array")
	nj := r.Skeleton.Len()
	var ibm []byte
	for _, jt := range r.Skeleton.Joints {
		ibm = appendMatrix(ibm, linalg.Translation(jt.Head.Scale(-1)))
	}
	// Weights are shared: smooth skins repeat the same few values, and
	// rigid parts are all 1.
	index := map[float64]int{}
	var weights []float64
	var vcount, v []byte
	for _, in := range r.Skin {
		k := 0
		for s, w := range in.Weight {
			if w <= 0 {
				continue
			}
			wi, ok := index[w]
			if !ok {
				wi = len(weights)
				index[w] = wi
				weights = append(weights, w)
			}
			v = appendInts(v, int(in.Joint[s]), wi)
			k++
		}
		vcount = appendInts(vcount, k)
	}
	zero, one := 0, 1
	return controller{ID: id, Name: "skin", Skin: skin{
		Source:    "#" + geomID,
		BindShape: matrix(linalg.IdentityAffine()),
		Sources: []source{
			nameSource(id+"-joints", strings.Join(jids, " "), nj, param{"JOINT", "name"}),
			floatSource(id+"-bind-poses", string(ibm), 16*nj, nj, 16, param{"TRANSFORM", "float4x4"}),
			floatSource(id+"-weights", string(appendFloats(nil, weights...)), len(weights), len(weights), 1, param{"WEIGHT", "float"}),
		},
		Joints: jointsEl{Inputs: []input{
			{Semantic: "JOINT", Source: "#" + id + "-joints"},
			{Semantic: "INV_BIND_MATRIX", Source: "#" + id + "-bind-poses"},
		}},
		VertexWeights: vertexWeights{Count: len(r.Skin),
			Inputs: []input{
				{Semantic: "JOINT", Source: "#" + id + "-joints", Offset: &zero},
				{Semantic: "WEIGHT", Source: "#" + id + "-weights", Offset: &one},
			},
			VCount: string(vcount), V: string(v)},
	}}
}
