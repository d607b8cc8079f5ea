# Makes testdata/blender_two_objects.fbx with Blender 3.4 (headless):
# two skinned objects (a cube on bone "lower", a UV sphere on bone
# "upper") under one armature, each with two UV maps and its own
# material, and an action bending "upper" 90° about X over 10 frames.
#   blender -b --factory-startup --python make_blender_fixture.py -- OUT.fbx
import bpy, sys, math

out = sys.argv[sys.argv.index("--") + 1:][0]
bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
scene.render.fps = 24
scene.frame_start, scene.frame_end = 1, 10

arm_data = bpy.data.armatures.new("rig")
arm = bpy.data.objects.new("rig", arm_data)
scene.collection.objects.link(arm)
bpy.context.view_layer.objects.active = arm
bpy.ops.object.mode_set(mode='EDIT')
lower = arm_data.edit_bones.new("lower")
lower.head, lower.tail = (0, 0, 0), (0, 0, 1)
upper = arm_data.edit_bones.new("upper")
upper.head, upper.tail = (0, 0, 1), (0, 0, 2)
upper.parent = lower
bpy.ops.object.mode_set(mode='OBJECT')

def skinned(obj, bone, mat_name, color):
    obj.parent = arm
    mod = obj.modifiers.new("skin", 'ARMATURE')
    mod.object = arm
    group = obj.vertex_groups.new(name=bone)
    group.add([v.index for v in obj.data.vertices], 1.0, 'REPLACE')
    obj.data.uv_layers.new(name="second")
    mat = bpy.data.materials.new(mat_name)
    mat.diffuse_color = color
    obj.data.materials.append(mat)

bpy.ops.mesh.primitive_cube_add(size=0.5, location=(0, 0, 0.5))
cube = bpy.context.active_object
cube.name = "cube"
skinned(cube, "lower", "red", (1, 0, 0, 1))
bpy.ops.mesh.primitive_uv_sphere_add(segments=8, ring_count=4, radius=0.3, location=(0, 0, 1.5))
ball = bpy.context.active_object
ball.name = "ball"
skinned(ball, "upper", "blue", (0, 0, 1, 1))

bpy.context.view_layer.objects.active = arm
bpy.ops.object.mode_set(mode='POSE')
pb = arm.pose.bones["upper"]
pb.rotation_mode = 'XYZ'
for f, angle in ((1, 0), (10, 90)):
    pb.rotation_euler = (math.radians(angle), 0, 0)
    pb.keyframe_insert("rotation_euler", frame=f)
bpy.ops.object.mode_set(mode='OBJECT')
bpy.ops.export_scene.fbx(filepath=out, bake_anim=True, add_leaf_bones=False, object_types={'ARMATURE', 'MESH'})
