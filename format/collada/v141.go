package collada

import "github.com/meshrig/meshrig/rig"

// document141 assembles a COLLADA 1.4.1 document from the sections. A
// later version gets its own file and document type, reusing them.
func document141(r *rig.Rig) *document {
	n := namer{}
	names := make([]string, r.Skeleton.Len())
	for j, jt := range r.Skeleton.Joints {
		names[j] = jt.Name
	}
	// Joints first: they keep their names, the other IDs step aside.
	jids := jointIDs(names, n)
	mats := materialsOf(r.Mesh.Surface, n, false)
	geom := geometryOf(r.Mesh, n, mats.syms)
	ctrl := controllerOf(r, jids, geom.ID, n)
	scene := sceneOf(r, jids, ctrl.ID, n)
	scene.Nodes[len(scene.Nodes)-1].Controller.BindMaterial = mats.bind
	doc := &document{
		Xmlns:   "http://www.collada.org/2005/11/COLLADASchema",
		Version: "1.4.1",
		Asset: asset{Tool: "meshrig", Created: timestamp, Modified: timestamp,
			Unit: unit{Name: "meter", Meter: 1}, UpAxis: "Y_UP"},
		Images:     mats.images,
		Effects:    mats.effects,
		Materials:  mats.materials,
		Geometries: []geometry{geom},
		Controller: []controller{ctrl},
		Scenes:     []visualScene{scene},
		Scene:      sceneInstance{Visual: instance{URL: "#" + scene.ID}},
	}
	if anims, clips := animationsOf(r, jids, n); len(anims) > 0 {
		doc.Animations = &animations{anims}
		doc.Clips = &animationClips{clips}
	}
	return doc
}
