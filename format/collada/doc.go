// Package collada writes rigs as COLLADA 1.4.1 documents (.dae): the rest
// mesh (polygons as read, so quads stay quads), a skin controller with
// inverse bind matrices and weights, the joint node hierarchy, and per
// clip a sampled matrix animation of every joint, grouped by
// library_animation_clips.
//
// Importing the package registers ".dae" with package format.
package collada
