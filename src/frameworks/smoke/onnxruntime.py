def _conv_model():
    from onnx import TensorProto, helper
    node = helper.make_node("Conv", ["x", "w"], ["y"])
    graph = helper.make_graph(
        [node], "cuvet_conv",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4, 12, 12]),
         helper.make_tensor_value_info("w", TensorProto.FLOAT, [8, 4, 3, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 8, 10, 10])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8  # what every ONNX Runtime since 1.10 reads, whatever the onnx package writes
    return model.SerializeToString()


def probe():
    R["framework"] = "onnxruntime"
    R["stage"] = "import"
    import onnxruntime as ort
    R["version"] = ort.__version__
    R["providers_available"] = ort.get_available_providers()
    R["gpu_available"] = "CUDAExecutionProvider" in R["providers_available"]
    if not R["gpu_available"]:
        R["gpu_build"] = False  # a CPU-only onnxruntime: nothing to fall back from
    R["stage"] = "session"
    options = ort.SessionOptions()
    options.log_severity_level = 1
    session = ort.InferenceSession(_conv_model(), options, providers=["CUDAExecutionProvider", "CPUExecutionProvider"])
    R["providers_used"] = session.get_providers()
    R["stage"] = "conv"
    x, w = inputs()
    out = session.run(None, {"x": x, "w": w})[0]
    good = compare(out, reference_conv(x, w))
    if not R["gpu_available"]:
        R["verdict"] = "cpu_only_build" if good else "wrong_result"
    elif "CUDAExecutionProvider" not in R["providers_used"]:
        R["verdict"] = "cpu_fallback"
    else:
        R["verdict"] = "ok" if good else "wrong_result"
    R["stage"] = "done"


run(probe)
