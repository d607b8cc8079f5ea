// Package forcefield finds the curve skeleton of a single static mesh by
// the repulsive force field method (Liu, Chen, Wu, Yang & Wang, "Automatic
// animation skeleton construction using repulsive force field", 2003;
// ../shared/papers/repulsive-force-field-skeleton-2003.txt). It is one of
// the single-mesh methods of issue 6: it returns a static.Skeleton, which
// method/skinweights binds to the mesh and static.Skeleton.Rig turns into
// a rig.
//
// The steps, in unit-cube coordinates (§3: the bounding box's longest side
// scaled to 1):
//
//  1. A bounding-volume hierarchy over the triangles (package bvh)
//     answers ray queries in logarithmic time (the paper's octree, §3.1).
//     Separate parts are the mesh's components with coincident vertices
//     welded, so a glTF character split along its texture seams is still
//     one closed part.
//  2. Voxel centres of a grid (Options.VoxelSize) are classified inside or
//     outside by ray parity along the three axes, counted per part and
//     put to a two-of-three vote (§3.2).
//  3. From every interior point, Options.Rays evenly spread rays (a
//     Fibonacci sphere in opposite pairs) give the force
//     F = Σ |rᵢ − p|⁻²·sᵢ and the shortest hit distance (§3.2), on every
//     core.
//  4. Local minima of |F| are the joint candidates; thinning removes
//     voxels from the highest force to the lowest, never a candidate and
//     never one whose removal changes the local topology (a simple-point
//     test), so a torus keeps its ring (§3.3). Minima in plates (ears,
//     fins) are then dropped and a second pass retracts their curves;
//     last, thinning goes on through parts thinner than a voxel (§5:
//     "tiny details of the model may be ignored"), candidates or not.
//  5. Points of the thinned set with more than two neighbours join the
//     candidates; chains of the thinned set connect them; candidates are
//     grouped by their distance spheres and one joint kept per group; the
//     groups inherit the connections, each bone keeping the curve it
//     stands for (§3.3).
//  6. Separate parts' pieces are joined through their nearest joints.
//  7. Where the paper is silent — where a limb's end joint goes, how many
//     joints a chain keeps — the bones' curves decide: a joint at each
//     limb's tip, a voxel inside the surface; one where a thinner part
//     leaves a fork's sphere (hip, shoulder, neck); one at each sharp
//     bend (knee, elbow). The root is the joint nearest the centre of
//     mass of the voxelized solid.
//
// Beyond the paper, so the result is usable as an animation skeleton:
// opposite ray pairs cancel the sampling's own bias; thinning also keeps
// the end of a curve where it is a medial point of a tube, so limbs reach
// their tips instead of shrinking back to their last force minimum (plates
// such as ears are excluded, their medial points forming whole sheets);
// a plate hanging from a part has no joints of its own, as in an artist's
// rig (one on its own keeps one, the paper's disk); spheres use the local
// thickness (the largest inscribed ball containing the candidate), at
// least a voxel; forks represent their groups; a limb's end that a
// group took in keeps its joint; cavities are filled before thinning; and
// loops shorter than their joints' spheres (voxel noise) are dropped. The
// comments at each step say why.
//
// Example:
//
//	m, _ := format.ReadMesh("armadillo.obj.gz")
//	skel, err := forcefield.Skeleton(ctx, m, forcefield.Options{})
//	skin, _ := skinweights.Compute(m, skel, skinweights.Heat, skinweights.Options{})
//	r, _ := skel.Rig(m, skin)
package forcefield
