def probe():
    R["framework"] = "torch"
    R["stage"] = "import"
    import torch
    R["version"] = torch.__version__
    R["cuda_build"] = torch.version.cuda
    R["stage"] = "device"
    R["gpu_available"] = torch.cuda.is_available()
    if not R["gpu_available"]:
        R["verdict"] = "cpu_fallback"
        return
    R["device_name"] = torch.cuda.get_device_name(0)
    R["stage"] = "cudnn"
    R["cudnn_version"] = torch.backends.cudnn.version()  # raises PyTorch's own version-mismatch text
    R["stage"] = "conv"
    torch.backends.cudnn.enabled = True
    x, w = inputs()
    out = torch.nn.functional.conv2d(torch.from_numpy(x).cuda(), torch.from_numpy(w).cuda())
    torch.cuda.synchronize()
    R["result_device"] = str(out.device)
    R["verdict"] = "ok" if compare(out.cpu().numpy(), reference_conv(x, w)) else "wrong_result"
    R["stage"] = "done"


run(probe)
