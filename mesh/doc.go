// Package mesh holds a triangle mesh: vertex positions, triangles, the
// polygons they came from, and what is derived from them (normals, areas,
// bounding box, adjacency, connected components).
//
// Connectivity (Topology) is kept apart from positions, so one Topology
// serves every frame of an animation that shares the faces.
//
//	m, err := mesh.New(verts, [][]int{{0, 1, 2, 3}}) // a quad, split into two triangles
//	top := mesh.NewTopology(m)
//	fmt.Println(len(top.Edges), top.NumComponents)
package mesh
