// Package registry is the one place that names meshrig's methods: every
// command (rig, bench, demo, skeletonize, refit, view) picks a method here
// by the name --method takes, or by one of its aliases, instead of a
// switch of its own.
//
// An Entry holds a method's name, aliases, paper, one-line description,
// the options it reads with their defaults, and its functions: Rig and
// Refit for the mesh-animation methods (ledeng, face-clustering,
// spectral), Skeleton and Refit for the static-mesh methods (forcefield,
// contraction). One Options struct serves them all; its zero fields mean
// each method's own defaults.
//
// The registry imports the method packages; methods never import it.
//
//	e, err := registry.Animation("ledeng")
//	r, err := e.Rig(ctx, s, registry.Options{MaxInfluences: 4})
package registry
