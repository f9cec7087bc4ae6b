"""The phrase tables formatters.gloss_zh says titles in Chinese with: a title's verbs, the
words whose Chinese is fixed in this trade, the names titles write in lower case. One table
a line, English and Chinese side by side, so a translator reads and extends them at once.
"""

from __future__ import annotations


def _pairs(table: str) -> tuple[tuple[str, str], ...]:
    """`english = 中文` lines, in order (the order a table is tried in)."""
    rows = [line.split(" = ") for line in table.strip().splitlines() if line.strip()]
    return tuple((en.strip(), zh.strip()) for en, zh in rows)


# A title's verbs (regular expressions of their forms) and their Chinese, tried in order.
VERBS = _pairs(
    r"""
add(?:s|ed|ing)? = 新增
support(?:s|ed|ing)? = 支持
fix(?:es|ed|ing)? = 修复
remov(?:e|es|ed|ing) = 移除
us(?:e|es|ed|ing) = 使用
updat(?:e|es|ed|ing) = 更新
(?:upgrad(?:e|es|ed|ing)|bump(?:s|ed)?) = 升级
refactor(?:s|ed|ing)? = 重构
optimi[sz](?:e|es|ed|ing) = 优化
improv(?:e|es|ed|ing) = 改进
implement(?:s|ed|ing)? = 实现
introduc(?:e|es|ed|ing) = 引入
integrat(?:e|es|ed|ing) = 集成
deprecat(?:e|es|ed|ing) = 弃用
enabl(?:e|es|ed|ing) = 启用
disabl(?:e|es|ed|ing) = 禁用
skip(?:s|ped|ping)? = 跳过
allow(?:s|ed|ing)? = 允许
avoid(?:s|ed|ing)? = 避免
prevent(?:s|ed|ing)? = 防止
handl(?:e|es|ed|ing) = 处理
reduc(?:e|es|ed|ing) = 减少
speed(?:s)? up = 加速
clean(?:s|ed)? ?up = 清理
restor(?:e|es|ed|ing) = 恢复
preserv(?:e|es|ed|ing) = 保留
revert(?:s|ed|ing)? = 回退
strip(?:s|ped)? = 去除
fall(?:s)? back to = 改用
tun(?:e|es|ed|ing) = 调优
extend(?:s|ed)? = 扩展
relax(?:es|ed)? = 放宽
simplif(?:y|ies|ied) = 简化
unif(?:y|ies|ied) = 统一
consolidat(?:e|es|ed) = 整合
migrat(?:e|es|ed) = 迁移
split(?:s)? = 拆分
reject(?:s|ed)? = 拒绝
validat(?:e|es|ed) = 校验
increas(?:e|es|ed) = 增大
renam(?:e|es|ed) = 重命名
mov(?:e|es|ed) = 移动
replac(?:e|es|ed) = 替换
extract(?:s|ed)? = 提取
pass(?:es|ed)? = 传递
align(?:s|ed)? = 对齐
run(?:s)? = 运行
utili[sz](?:e|es|ed) = 使用
backport(?:s|ed)? = backport
re-?enabl(?:e|es|ed) = 重新启用
"""
)
# Words whose Chinese is fixed in this trade, longest first: an object all of whose words
# are these or names is said in Chinese ("weight loading error" → 权重加载错误).
WORDS = _pairs(
    """
speculative decoding = 推测解码
tool calling = 工具调用
tool parser = 工具解析器
reasoning parser = 推理解析器
vision encoder = 视觉编码器
weight loading = 权重加载
error message = 错误信息
illegal memory access = 非法内存访问
rotary positional embeddings = 旋转位置编码
rotary embeddings = 旋转位置编码
rotary embedding = 旋转位置编码
rejection sampling = 拒绝采样
docker image = Docker 镜像
docker images = Docker 镜像
block size = 块大小
shape mismatch = 形状不匹配
test failures = 测试失败
test failure = 测试失败
unit tests = 单元测试
memory leak = 内存泄漏
memory usage = 内存占用
kv cache = KV 缓存
accuracy = 精度
async = 异步
batched = 批量
calls = 调用
class = 类
code = 代码
compatibility = 兼容性
compilation = 编译
compile = 编译
compression = 压缩
correct = 正确的
correctness = 正确性
custom = 自定义
dense = 稠密
dynamic = 动态
eval = 评测
evals = 评测
expert = 专家
experts = 专家
files = 文件
flaky = 不稳定的
function = 函数
fused = 融合的
handling = 处理
hybrid = 混合
input = 输入
inputs = 输入
interval = 间隔
mapping = 映射
metadata = 元数据
method = 方法
methods = 方法
mismatch = 不匹配
missing = 缺失的
mode = 模式
module = 模块
multiple = 多个
offloading = 卸载
online = 在线
operations = 操作
output = 输出
prefix = 前缀
quant = 量化
sampling = 采样
server = 服务器
shape = 形状
shared = 共享的
size = 大小
sparse = 稀疏
state = 状态
supported = 受支持的
tensors = 张量
throughput = 吞吐
tool = 工具
tuned = 调优的
type = 类型
video = 视频
vision = 视觉
attention = 注意力
backend = 后端
backends = 后端
benchmark = 基准测试
benchmarks = 基准测试
bug = 缺陷
build = 构建
cache = 缓存
check = 检查
condition = 条件
conditions = 条件
config = 配置
configuration = 配置
copies = 拷贝
copy = 拷贝
crash = 崩溃
crashes = 崩溃
deadlock = 死锁
decode = 解码
decoding = 解码
default = 默认
detection = 检测
device = 设备
docs = 文档
documentation = 文档
encoder = 编码器
endpoint = 端点
error = 错误
errors = 错误
fusion = 融合
hardware = 硬件
inference = 推理
layer = 层
layers = 层
loading = 加载
logging = 日志
memory = 内存
model = 模型
models = 模型
multimodal = 多模态
option = 选项
overhead = 开销
parser = 解析器
performance = 性能
pipeline = 流水线
platform = 平台
platforms = 平台
quantization = 量化
redundant = 冗余的
regression = 回归
regressions = 回归
release = 发布
request = 请求
requests = 请求
scheduler = 调度器
scheduling = 调度
streaming = 流式输出
support = 支持
test = 测试
tests = 测试
timeout = 超时
timeouts = 超时
unused = 未使用的
warning = 警告
warnings = 警告
weight = 权重
weights = 权重
"""
)
# Names titles write in lower case: projects, vendors, models, kernels, formats.
LOWER_NAMES = frozenset(
    """
    aiter amd ampere api arm attn awq bf16 blackwell ck cpu cuda cudagraph cudagraphs
    cutlass deepep deepgemm deepseek docker dp eagle ep eplb flashinfer fp16 fp32 fp4 fp8
    gdn gemm gemma gemms gguf glm gptq gpu gpus grpc helion helm hermes hip hopper int4
    int8 intel kernel kernels kimi kv llama lmcache lora mamba marlin minimax mistral mla
    mm moe mooncake mtp mxfp4 nightly nixl nvfp4 nvidia openai pp prefill pytorch qwen rocm
    spec ssm token tokenizer tokens torch tp tpu transformers triton vit vllm w4a16 w8a8
    wheel xpu
    """.split()  # noqa: SIM905 - a word list reads best as words
)
