#include <string>

#include "rules/rules_fixtures.hpp"

using cuvet::rules::Database;
using cuvet::rules::Version;
using namespace cuvet::test;

TEST_CASE(
    "plain jax is CPU-only, jax[cuda12] and jax[cuda13] are separate builds with their own pins",
    "[rules]") {
    const auto* jax = db().python_package("jax");
    REQUIRE(jax);
    CHECK(jax->framework == "jax");
    CHECK(jax->variant.empty());
    CHECK(db().python_package("jaxlib")->role == "cpu_only");

    const auto* cuda12 = db().build_for_package("jax-cuda12-plugin", v("0.4.31"));
    REQUIRE(cuda12);
    CHECK(cuda12->variant == "cuda12");
    const auto* pin = cuda12->requirement("nvidia_cudnn_cu12");  // normalized lookup
    REQUIRE(pin);
    CHECK(pin->spec == ">=9.1,<10.0");
    CHECK(pin->lower()->str() == "9.1");
    CHECK(pin->upper()->str() == "10.0");
    CHECK_FALSE(pin->upper_inclusive());

    // The pin moved to cuDNN >= 9.8 with 0.6.0; the 0.5.3 plugin still accepts 9.1.
    CHECK(db().build_for_package("jax-cuda12-plugin", v("0.5.3"))->cudnn->str() == "9.1");
    CHECK(db().build_for_package("Jax_CUDA12.Plugin", v("0.6.0"))->cudnn->str() == "9.8");

    const auto* cuda13 = db().framework_build("jax", v("0.8.1"), "cuda13");
    REQUIRE(cuda13);
    CHECK(cuda13->cuda->str() == "13");
    CHECK(cuda13->requirement("nvidia-cudnn-cu13")->lower()->str() == "9.12.0.46");
    CHECK(cuda13->package == "jax-cuda13-plugin");
    // cuda12 and cuda13 are different rows of the same release.
    CHECK(db().framework_build("jax", v("0.8.1"), "cuda12")->requirement("nvidia-cudnn-cu12"));
    CHECK_FALSE(
        db().framework_build("jax", v("0.8.1"), "cuda12")->requirement("nvidia-cudnn-cu13"));

    // 0.11.2 is known from the wheel installed on the GPU machine; 0.11.1, between the last
    // tag read and that wheel, stays unknown, and so does 0.11.2's cuda12 plugin.
    CHECK(db().build_for_package("jax-cuda13-plugin", v("0.11.2"))->cudnn->str() == "9.12.0.46");
    CHECK_FALSE(db().build_for_package("jax-cuda13-plugin", v("0.11.1")));
    CHECK_FALSE(db().build_for_package("jax-cuda12-plugin", v("0.11.2")));

    // Releases past the last one read stay unknown.
    CHECK_FALSE(db().build_for_package("jax-cuda13-plugin", v("99.0")));
    CHECK_FALSE(db().build_for_package("no-such-package", v("1.0")));
}

TEST_CASE("PyTorch 1.12 on PyPI is the CUDA 10.2 build", "[rules]") {
    const auto* pypi = db().framework_build("pytorch", v("1.12.1"), "");
    REQUIRE(pypi);
    CHECK(pypi->variant == "cu102");
    CHECK(pypi->cuda->str() == "10.2");
    // RELEASE.md gives none; pytorch/builder's release/1.12 image installs cuDNN 7.6.5.32 for 10.2.
    REQUIRE(pypi->cudnn);
    CHECK(pypi->cudnn->str() == "7.6.5.32");
    const auto* cu113 = db().framework_build("pytorch", v("1.12.1"), "cu113");
    REQUIRE(cu113);
    CHECK_FALSE(cu113->is_default);
    CHECK(cu113->index == "https://download.pytorch.org/whl/cu113");
}

TEST_CASE("PyTorch 2.11 on PyPI: RELEASE.md's cuDNN and the wheel's pin are both kept", "[rules]") {
    const auto* pypi = db().framework_build("pytorch", v("2.11.0"), "");
    REQUIRE(pypi);
    CHECK(pypi->variant == "cu130");
    CHECK(pypi->cudnn->str() == "9.17.1.4");  // the build version checks compare against
    const auto* pin = pypi->requirement("nvidia-cudnn-cu13");
    REQUIRE(pin);
    CHECK(pin->lower()->str() == "9.19.0.56");  // what pip installs
    // RFC #190355 proposed 13.2 for PyPI; the 2.14.0 release kept 13.0 (colabtools#6093)
    CHECK(db().framework_build("pytorch", v("2.14.0"), "")->variant == "cu130");
    CHECK(db().framework_build("pytorch", v("2.13.0"), "cu129"));
    CHECK(db().framework_build("pytorch", v("2.12.0"), "")->variant == "cu130");
    CHECK(db().framework_build("pytorch", v("1.8.0"), "")->variant == "cu102");
    CHECK_FALSE(db().framework_build("pytorch", v("1.10.1"), ""));  // the source does not say
}

TEST_CASE("ONNX Runtime's load rule, and what ORT prints", "[rules]") {
    const auto* rule = db().cudnn_load_rule("onnxruntime");
    REQUIRE(rule);
    CHECK(rule->rule == "same_major");
    cuvet::rules::MessageValues values;
    values.cudnn_major = "9";
    values.cuda_major = "12";
    const auto* printed =
        db().framework_error_text("onnxruntime", "cuda_ep_unavailable", v("1.20.1"));
    REQUIRE(printed);
    std::string text = cuvet::rules::fill_message(printed->message, values);
    CHECK_THAT(text,
               Catch::StartsWith(
                   "Failed to create CUDAExecutionProvider. Require cuDNN 9.* and CUDA 12.*."));
    CHECK(text.find('{') == std::string::npos);

    CHECK_FALSE(db().framework_error_text("onnxruntime", "cuda_ep_unavailable", v("1.17.0")));
}

TEST_CASE("framework messages: placeholders without a value stay as written", "[rules]") {
    cuvet::rules::MessageValues values;
    values.runtime = "8.1.0";
    CHECK(cuvet::rules::fill_message("runtime {runtime}, built {built}, {runtime}", values) ==
          "runtime 8.1.0, built {built}, 8.1.0");
    const auto* tf = db().framework_error_text("tensorflow", "cudnn_version_mismatch", v("2.15.0"));
    REQUIRE(tf);
    CHECK_THAT(
        tf->message,
        Catch::StartsWith(
            "Loaded runtime CuDNN library: {runtime} but source was compiled with: {built}."));
}

TEST_CASE("framework error texts follow the release that prints them", "[rules]") {
    const auto* old_tf =
        db().framework_error_text("tensorflow", "cudnn_version_mismatch", v("1.12.0"));
    REQUIRE(old_tf);
    CHECK_THAT(old_tf->message, Catch::Contains("major and minor version needs to match"));
    const auto* new_tf =
        db().framework_error_text("tensorflow", "cudnn_version_mismatch", v("2.16.1"));
    REQUIRE(new_tf);
    CHECK_THAT(new_tf->message, Catch::Contains("needs to have matching major version"));
    // 2.5-2.11 already print the newer text (tensorflow/tensorflow#50217 names 2.5.0).
    const auto* tf26 =
        db().framework_error_text("tensorflow", "cudnn_version_mismatch", v("2.6.0"));
    REQUIRE(tf26);
    CHECK(tf26->message == new_tf->message);
    REQUIRE(tf26->max_version);
    CHECK(tf26->max_version->str() == "2.11");
    // Releases whose wording no source shows get none rather than a neighbour's.
    CHECK_FALSE(db().framework_error_text("tensorflow", "cudnn_version_mismatch", v("2.4.0")));
    CHECK_FALSE(db().framework_error_text("tensorflow", "cudnn_version_mismatch", v("1.9.0")));
    const auto* tf115 =
        db().framework_error_text("tensorflow", "cudnn_version_mismatch", v("1.15.0"));
    REQUIRE(tf115);
    CHECK(tf115 == old_tf);
    const auto* tf17 =
        db().framework_error_text("tensorflow", "cudnn_version_mismatch", v("1.7.0"));
    REQUIRE(tf17);
    CHECK_THAT(tf17->message, Catch::Contains("(compatibility version {runtime_compat})"));

    const auto* torch_1120 =
        db().framework_error_text("pytorch", "cudnn_version_mismatch", v("1.12.0"));
    const auto* torch_1121 =
        db().framework_error_text("pytorch", "cudnn_version_mismatch", v("1.12.1"));
    REQUIRE(torch_1120);
    REQUIRE(torch_1121);
    CHECK_THAT(torch_1120->message, Catch::EndsWith("but linked against {runtime}"));
    CHECK_THAT(torch_1121->message, Catch::Contains("but found runtime version {runtime}"));
    // Without a version: the current wording.
    CHECK(db().framework_error_text("pytorch", "cudnn_version_mismatch", std::nullopt) ==
          torch_1121);
    // 0.3/0.4 refused any other major.minor with the older "version mismatch" text.
    const auto* torch_041 =
        db().framework_error_text("pytorch", "cudnn_version_mismatch", v("0.4.1"));
    REQUIRE(torch_041);
    CHECK_THAT(torch_041->message,
               Catch::StartsWith("cuDNN version mismatch: PyTorch was compiled"));

    // ONNX Runtime before 1.19: the older warning, where a source names the release.
    const auto* ort115 =
        db().framework_error_text("onnxruntime", "cuda_ep_unavailable", v("1.15.1"));
    REQUIRE(ort115);
    CHECK_THAT(ort115->message,
               Catch::StartsWith("Failed to create CUDAExecutionProvider. Please reference"));
}

TEST_CASE("TensorFlow's missing-library text follows the release", "[rules]") {
    cuvet::rules::MessageValues values;
    values.library = "libcudnn.so.8";
    const auto* tf211 =
        db().framework_error_text("tensorflow", "cudnn_library_missing", v("2.11.0"));
    REQUIRE(tf211);
    CHECK(cuvet::rules::fill_message(tf211->message, values) ==
          "Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open "
          "shared object file: No such file or directory");
    const auto* tf115 =
        db().framework_error_text("tensorflow", "cudnn_library_missing", v("1.15.5"));
    REQUIRE(tf115);
    CHECK_THAT(tf115->message, Catch::StartsWith("Could not dlopen library '{library}'"));
    const auto* tf216 =
        db().framework_error_text("tensorflow", "cudnn_library_missing", v("2.16.1"));
    REQUIRE(tf216);
    CHECK_THAT(tf216->message, Catch::StartsWith("Cannot dlopen some GPU libraries."));
    // 1.7-1.13: no source shows their wording.
    CHECK_FALSE(db().framework_error_text("tensorflow", "cudnn_library_missing", v("1.13.1")));
    // 1.3-1.6 link libcudnn, so the import itself fails.
    const auto* tf13 = db().framework_error_text("tensorflow", "cudnn_library_missing", v("1.3.0"));
    REQUIRE(tf13);
    values.library = "libcudnn.so.6";
    CHECK_THAT(cuvet::rules::fill_message(tf13->message, values),
               Catch::StartsWith("ImportError: libcudnn.so.6: cannot open shared object file"));
}

TEST_CASE("CuPy wheels name their CUDA major", "[rules]") {
    const auto* package = db().python_package("cupy-cuda12x");
    REQUIRE(package);
    CHECK(package->cuda_major == 12);
    const auto* build = db().build_for_package("cupy-cuda11x", v("13.0.0"));
    REQUIRE(build);
    CHECK(build->cuda_min->str() == "11.2");
}

TEST_CASE("NGC containers by image and tag", "[rules]") {
    const auto* r = db().ngc_container("nvcr.io/nvidia/pytorch", "25.12-py3");
    REQUIRE(r);
    CHECK(r->cuda->str() == "13.1.0");
    CHECK(r->framework_version == "2.10.0a0+b4e4ee81d3");
    CHECK(r->framework->str() == "2.10.0");
    CHECK_FALSE(r->cudnn);  // not read: unknown
    CHECK(db().ngc_container("pytorch", "20.02")->min_driver_branch->str() == "440");
    CHECK_FALSE(db().ngc_container("pytorch", "07.01"));
    CHECK_FALSE(db().ngc_container("tensorflow", "25.12"));
    // TensorFlow images are tagged YY.MM-tf2-py3 (and -tf1-py3 until 23.03): one release.
    const auto* tf = db().ngc_container("nvcr.io/nvidia/tensorflow", "21.10-tf2-py3");
    REQUIRE(tf);
    CHECK(tf->cuda->str() == "11.4.2");
    CHECK(tf->cudnn->str() == "8.2.4.15");
    CHECK(tf->min_driver_branch->str() == "470");
    // Triton's notes give the CUDA and the driver branch; cuDNN stays unknown.
    const auto* triton = db().ngc_container("nvcr.io/nvidia/tritonserver", "24.03-py3");
    REQUIRE(triton);
    CHECK(triton->cuda->str() == "12.4.0");
    CHECK(triton->min_driver_branch->str() == "545");
    CHECK(triton->datacenter_drivers.size() == 4);
    CHECK_FALSE(triton->cudnn);
    // 25.08's notes say "CUDA 13.0.0 … requires driver release 575", below CUDA 13's R580 floor:
    // recorded as unknown, the driver table decides.
    const auto* stale = db().ngc_container("tritonserver", "25.08");
    REQUIRE(stale);
    CHECK(stale->cuda->str() == "13.0.0");
    CHECK_FALSE(stale->min_driver_branch);
    CHECK(db().ngc_container("tensorflow", "23.01")->cuda->str() == "12.0.1");
    for (const auto& release : db().ngc_containers()) {
        CHECK_FALSE(release.provenance.source.url.empty());
    }
}

TEST_CASE("NGC PyTorch and JAX releases", "[rules]") {
    // A release read on NVIDIA's own page.
    const auto* pt1911 = db().ngc_container("pytorch", "19.11-py3");
    REQUIRE(pt1911);
    CHECK(pt1911->cuda->str() == "10.2.89");
    CHECK(pt1911->cudnn->str() == "7.6.5");
    CHECK(pt1911->min_driver_branch->str() == "440");
    CHECK(pt1911->ubuntu == "18.04");
    CHECK(pt1911->provenance.confidence.empty());
    // One read in a copy of the page: secondary.
    const auto* pt2405 = db().ngc_container("nvcr.io/nvidia/pytorch", "24.05-py3");
    REQUIRE(pt2405);
    CHECK(pt2405->cuda->str() == "12.4.1");
    CHECK(pt2405->cudnn->str() == "9.1.0.70");
    REQUIRE(pt2405->ships.at("tensorrt"));
    CHECK(pt2405->ships.at("tensorrt")->str() == "10.0.1.6");
    CHECK_FALSE(pt2405->min_driver_branch);  // not in the copy read: unknown
    CHECK(pt2405->provenance.confidence == "secondary");
    // NVIDIA published no 20.04, 20.05 or 25.07 PyTorch container.
    CHECK_FALSE(db().ngc_container("pytorch", "20.04"));
    CHECK_FALSE(db().ngc_container("pytorch", "25.07"));
    // JAX: the releases NVIDIA lists, their contents unknown.
    const auto* jax = db().ngc_container("nvcr.io/nvidia/jax", "24.04-py3");
    REQUIRE(jax);
    CHECK_FALSE(jax->cuda);
    CHECK_FALSE(jax->cudnn);
    CHECK(jax->framework_version.empty());
    CHECK_FALSE(db().ngc_container("jax", "23.09"));
    CHECK(db().ngc_container("jax", "24.10")->framework_version == "0.4.33");
}

TEST_CASE("the new tables reject bad rows with a pointer to them", "[rules]") {
    std::string packages = R"({"table": "python_packages", "data_version": "x", "description": "d",
        "sources": {"s": {"url": "https://x", "title": "t"}},
        "packages": [{"name": "Jax_Cuda12", "ecosystem": "pypi", "role": "gpu_plugin", "framework": "jax",
                      "variant": "cuda12", "cuda_major": 12, "cudnn_major": 9, "index": "pypi", "source": "s"}]})";
    CHECK_THAT(
        load_error_with("python_packages.json", packages),
        Catch::Contains("/packages/0/name: expected the PEP 503 normalized name 'jax-cuda12'"));

    // A requirement must name a row: its facts (needs_toolkit) are what lint reads.
    std::string unknown_requirement = R"({"table": "python_packages", "data_version": "x",
        "description": "d", "sources": {"s": {"url": "https://x", "title": "t"}},
        "packages": [{"name": "sglang", "ecosystem": "pypi", "role": "extension", "framework": null,
                      "variant": null, "cuda_major": null, "cudnn_major": null, "index": "pypi",
                      "requires": [{"package": "flashinfer-python", "extras": ["srt"], "source": "s"}],
                      "source": "s"}]})";
    CHECK_THAT(
        load_error_with("python_packages.json", unknown_requirement),
        Catch::Contains("/packages/0/requires/0/package: 'flashinfer-python' has no pypi row"));

    std::string ngc = R"({"table": "ngc_containers", "data_version": "x", "description": "d",
        "sources": {"s": {"url": "https://x", "title": "t"}}, "images": ["pytorch"],
        "releases": [{"image": "pytorch", "release": "2405", "framework_version": null, "cuda": null,
                      "cudnn": null, "ships": {"tensorrt": null}, "min_driver_branch": null, "datacenter_drivers": [],
                      "ubuntu": null, "source": "s"}]})";
    CHECK_THAT(load_error_with("ngc_containers.json", ngc),
               Catch::Contains("/releases/0/release: expected a YY.MM release"));

    std::string frameworks = R"({"table": "frameworks", "data_version": "x", "description": "d",
        "sources": {"s": {"url": "https://x", "title": "t"}},
        "catalog": [{"framework": "jax", "import_names": [], "pip": [], "conda": [],
                     "version_files": [], "source": "s"}],
        "builds": [{"framework": "jax", "version": "0.6.0", "until": "0.5.0", "variant": "cuda12", "cuda": "12",
                    "cudnn": null, "cudnn_major": 9, "default": false, "source": "s"}],
        "cudnn_load_rules": []})";
    CHECK_THAT(load_error_with("frameworks.json", frameworks),
               Catch::Contains("/builds/0/until: 'until' is below 'version'"));
}
