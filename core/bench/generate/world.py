"""Real public geography (cities, districts, metro lines and stations) in English, Chinese and
pinyin, plus the invented parts of the world (compounds, shops, companies) per city.

Coordinates are approximate district centres (good to ~2 km), enough for EXIF GPS cues.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Station:
    en: str
    zh: str
    line_en: str
    line_zh: str


@dataclass(frozen=True)
class District:
    en: str
    zh: str
    short_en: str       # "Nanshan" for "Nanshan District"
    lat: float
    lon: float
    stations: tuple[Station, ...] = ()


@dataclass(frozen=True)
class Place:
    en: str
    zh: str
    pinyin: str = ""
    abbr: tuple[str, ...] = ()

    def aliases(self) -> list[str]:
        out = [self.zh] + ([self.pinyin] if self.pinyin else []) + list(self.abbr)
        return [a for a in dict.fromkeys(out) if a and a != self.en]


@dataclass(frozen=True)
class City:
    key: str
    name: Place
    region: Place
    country: Place
    style: str                  # "zh" | "en" | "mixed"
    tz: str                     # "+08:00"
    ip_label_zh: str            # what Rednote shows ("广东", "中国香港", "美国")
    ip_label_en: str
    metro_en: str
    metro_zh: str
    currency: str               # symbol on receipts
    currency_code: str
    districts: tuple[District, ...]
    universities: tuple[Place, ...]
    phone_prefix: str           # format hint for invented numbers
    postcode: str = ""          # format hint, "#" -> digit, "A" -> letter


def _st(en: str, zh: str, line_en: str, line_zh: str) -> Station:
    return Station(en, zh, line_en, line_zh)


CHINA = Place("China", "中国", "Zhongguo", ("PRC", "中华人民共和国"))

CITIES: tuple[City, ...] = (
    City("shenzhen", Place("Shenzhen", "深圳", "Shenzhen", ("SZ",)), Place("Guangdong", "广东", "Guangdong", ("广东省", "Guangdong Province")),
         CHINA, "zh", "+08:00", "广东", "Guangdong", "Shenzhen Metro", "深圳地铁", "¥", "CNY",
         (District("Nanshan District", "南山区", "Nanshan", 22.533, 113.930,
                   (_st("Hi-Tech Park", "高新园", "Line 1", "1号线"), _st("Shenzhen University", "深大", "Line 1", "1号线"),
                    _st("Houhai", "后海", "Line 2", "2号线"))),
          District("Futian District", "福田区", "Futian", 22.541, 114.055,
                   (_st("Chegongmiao", "车公庙", "Line 1", "1号线"), _st("Shopping Park", "购物公园", "Line 1", "1号线"),
                    _st("Futian", "福田", "Line 2", "2号线"))),
          District("Luohu District", "罗湖区", "Luohu", 22.548, 114.131,
                   (_st("Grand Theater", "大剧院", "Line 1", "1号线"), _st("Laojie", "老街", "Line 1", "1号线"))),
          District("Bao'an District", "宝安区", "Bao'an", 22.555, 113.883,
                   (_st("Bao'an Center", "宝安中心", "Line 1", "1号线"), _st("Xixiang", "西乡", "Line 1", "1号线"))),
          District("Longgang District", "龙岗区", "Longgang", 22.720, 114.247,
                   (_st("Buji", "布吉", "Line 3", "3号线"), _st("Longcheng Square", "龙城广场", "Line 3", "3号线"))),
          District("Longhua District", "龙华区", "Longhua", 22.696, 114.045,
                   (_st("Shenzhen North Station", "深圳北站", "Line 4", "4号线"), _st("Qinghu", "清湖", "Line 4", "4号线")))),
         (Place("Shenzhen University", "深圳大学", "Shenzhen Daxue", ("SZU", "深大")),
          Place("Southern University of Science and Technology", "南方科技大学", "Nanfang Keji Daxue", ("SUSTech", "南科大"))),
         "13#########", "518###"),
    City("beijing", Place("Beijing", "北京", "Beijing", ("BJ",)), Place("Beijing", "北京", "Beijing", ("北京市",)),
         CHINA, "zh", "+08:00", "北京", "Beijing", "Beijing Subway", "北京地铁", "¥", "CNY",
         (District("Haidian District", "海淀区", "Haidian", 39.959, 116.298,
                   (_st("Zhongguancun", "中关村", "Line 4", "4号线"), _st("Wudaokou", "五道口", "Line 13", "13号线"))),
          District("Chaoyang District", "朝阳区", "Chaoyang", 39.921, 116.443,
                   (_st("Guomao", "国贸", "Line 1", "1号线"), _st("Wangjing", "望京", "Line 14", "14号线"))),
          District("Dongcheng District", "东城区", "Dongcheng", 39.928, 116.416,
                   (_st("Dongzhimen", "东直门", "Line 2", "2号线"), _st("Wangfujing", "王府井", "Line 1", "1号线"))),
          District("Xicheng District", "西城区", "Xicheng", 39.912, 116.366,
                   (_st("Xidan", "西单", "Line 1", "1号线"), _st("Fuxingmen", "复兴门", "Line 2", "2号线"))),
          District("Changping District", "昌平区", "Changping", 40.072, 116.318,
                   (_st("Huilongguan", "回龙观", "Line 13", "13号线"),))),
         (Place("Peking University", "北京大学", "Beijing Daxue", ("PKU", "北大")),
          Place("Tsinghua University", "清华大学", "Qinghua Daxue", ("THU", "清华")),
          Place("Beijing Normal University", "北京师范大学", "Beijing Shifan Daxue", ("BNU", "北师大"))),
         "13#########", "100###"),
    City("shanghai", Place("Shanghai", "上海", "Shanghai", ("SH",)), Place("Shanghai", "上海", "Shanghai", ("上海市",)),
         CHINA, "zh", "+08:00", "上海", "Shanghai", "Shanghai Metro", "上海地铁", "¥", "CNY",
         (District("Pudong New Area", "浦东新区", "Pudong", 31.221, 121.544,
                   (_st("Lujiazui", "陆家嘴", "Line 2", "2号线"), _st("Zhangjiang Hi-Tech Park", "张江高科", "Line 2", "2号线"))),
          District("Xuhui District", "徐汇区", "Xuhui", 31.188, 121.437,
                   (_st("Xujiahui", "徐家汇", "Line 1", "1号线"), _st("Caohejing Hi-Tech Park", "漕河泾开发区", "Line 9", "9号线"))),
          District("Jing'an District", "静安区", "Jing'an", 31.229, 121.448,
                   (_st("Jing'an Temple", "静安寺", "Line 2", "2号线"), _st("West Nanjing Road", "南京西路", "Line 2", "2号线"))),
          District("Minhang District", "闵行区", "Minhang", 31.113, 121.382,
                   (_st("Xinzhuang", "莘庄", "Line 1", "1号线"),)),
          District("Yangpu District", "杨浦区", "Yangpu", 31.260, 121.526,
                   (_st("Wujiaochang", "五角场", "Line 10", "10号线"),)),
          District("Changning District", "长宁区", "Changning", 31.220, 121.424,
                   (_st("Zhongshan Park", "中山公园", "Line 2", "2号线"),))),
         (Place("Fudan University", "复旦大学", "Fudan Daxue", ("复旦",)),
          Place("Tongji University", "同济大学", "Tongji Daxue", ("同济",)),
          Place("East China Normal University", "华东师范大学", "Huadong Shifan Daxue", ("ECNU", "华师大"))),
         "13#########", "200###"),
    City("guangzhou", Place("Guangzhou", "广州", "Guangzhou", ("GZ", "Canton")), Place("Guangdong", "广东", "Guangdong", ("广东省", "Guangdong Province")),
         CHINA, "zh", "+08:00", "广东", "Guangdong", "Guangzhou Metro", "广州地铁", "¥", "CNY",
         (District("Tianhe District", "天河区", "Tianhe", 23.125, 113.361,
                   (_st("Tiyu Xilu", "体育西路", "Line 1", "1号线"), _st("Zhujiang New Town", "珠江新城", "Line 3", "3号线"))),
          District("Haizhu District", "海珠区", "Haizhu", 23.084, 113.317,
                   (_st("Kecun", "客村", "Line 3", "3号线"),)),
          District("Yuexiu District", "越秀区", "Yuexiu", 23.129, 113.267,
                   (_st("Gongyuanqian", "公园前", "Line 1", "1号线"),)),
          District("Panyu District", "番禺区", "Panyu", 22.938, 113.384,
                   (_st("Shiqiao", "市桥", "Line 3", "3号线"),)),
          District("Baiyun District", "白云区", "Baiyun", 23.158, 113.273,
                   (_st("Jiahewanggang", "嘉禾望岗", "Line 2", "2号线"),))),
         (Place("Sun Yat-sen University", "中山大学", "Zhongshan Daxue", ("SYSU", "中大")),
          Place("South China University of Technology", "华南理工大学", "Huanan Ligong Daxue", ("SCUT", "华工"))),
         "13#########", "510###"),
    City("hangzhou", Place("Hangzhou", "杭州", "Hangzhou", ("HZ",)), Place("Zhejiang", "浙江", "Zhejiang", ("浙江省", "Zhejiang Province")),
         CHINA, "zh", "+08:00", "浙江", "Zhejiang", "Hangzhou Metro", "杭州地铁", "¥", "CNY",
         (District("Shangcheng District", "上城区", "Shangcheng", 30.250, 120.170,
                   (_st("Longxiangqiao", "龙翔桥", "Line 1", "1号线"),)),
          District("Binjiang District", "滨江区", "Binjiang", 30.208, 120.211,
                   (_st("Jiangling Road", "江陵路", "Line 1", "1号线"),)),
          District("Xihu District", "西湖区", "Xihu", 30.260, 120.130, ()),
          District("Yuhang District", "余杭区", "Yuhang", 30.420, 120.300, ())),
         (Place("Zhejiang University", "浙江大学", "Zhejiang Daxue", ("ZJU", "浙大")),),
         "13#########", "310###"),
    City("chengdu", Place("Chengdu", "成都", "Chengdu", ("CD",)), Place("Sichuan", "四川", "Sichuan", ("四川省", "Sichuan Province")),
         CHINA, "zh", "+08:00", "四川", "Sichuan", "Chengdu Metro", "成都地铁", "¥", "CNY",
         (District("Jinjiang District", "锦江区", "Jinjiang", 30.657, 104.083,
                   (_st("Chunxi Road", "春熙路", "Line 2", "2号线"),)),
          District("Qingyang District", "青羊区", "Qingyang", 30.674, 104.062,
                   (_st("Tianfu Square", "天府广场", "Line 1", "1号线"),)),
          District("Wuhou District", "武侯区", "Wuhou", 30.642, 104.043, ()),
          District("Chenghua District", "成华区", "Chenghua", 30.660, 104.101,
                   (_st("Chengdu East Railway Station", "成都东客站", "Line 2", "2号线"),))),
         (Place("Sichuan University", "四川大学", "Sichuan Daxue", ("SCU", "川大")),
          Place("University of Electronic Science and Technology of China", "电子科技大学", "Dianzi Keji Daxue", ("UESTC", "电子科大"))),
         "13#########", "610###"),
    City("hongkong", Place("Hong Kong", "香港", "Xianggang", ("HK", "HKSAR")), Place("Hong Kong", "香港", "Xianggang", ("HK", "中国香港", "Hong Kong SAR")),
         CHINA, "mixed", "+08:00", "中国香港", "Hong Kong", "MTR", "港铁", "HK$", "HKD",
         (District("Kowloon City District", "九龙城区", "Kowloon City", 22.328, 114.191,
                   (_st("Kowloon Tong", "九龙塘", "Kwun Tong Line", "观塘线"),)),
          District("Wan Chai District", "湾仔区", "Wan Chai", 22.277, 114.175,
                   (_st("Wan Chai", "湾仔", "Island Line", "港岛线"),)),
          District("Sha Tin District", "沙田区", "Sha Tin", 22.383, 114.188,
                   (_st("Sha Tin", "沙田", "East Rail Line", "东铁线"),)),
          District("Eastern District", "东区", "Eastern", 22.284, 114.224,
                   (_st("Quarry Bay", "鲗鱼涌", "Island Line", "港岛线"),)),
          District("Yau Tsim Mong District", "油尖旺区", "Yau Tsim Mong", 22.321, 114.172,
                   (_st("Mong Kok", "旺角", "Tsuen Wan Line", "荃湾线"),)),
          District("Kwun Tong District", "观塘区", "Kwun Tong", 22.313, 114.226,
                   (_st("Kwun Tong", "观塘", "Kwun Tong Line", "观塘线"),))),
         (Place("The University of Hong Kong", "香港大学", "Xianggang Daxue", ("HKU", "港大")),
          Place("The Chinese University of Hong Kong", "香港中文大学", "Xianggang Zhongwen Daxue", ("CUHK", "中大")),
          Place("The Hong Kong Polytechnic University", "香港理工大学", "Xianggang Ligong Daxue", ("PolyU", "理大"))),
         "9### ####", ""),
    City("singapore", Place("Singapore", "新加坡", "Xinjiapo", ("SG", "SGP")), Place("Singapore", "新加坡", "Xinjiapo", ("SG",)),
         Place("Singapore", "新加坡", "Xinjiapo", ("SG", "Republic of Singapore")), "mixed", "+08:00", "新加坡", "Singapore",
         "MRT", "地铁", "S$", "SGD",
         (District("Tampines", "淡滨尼", "Tampines", 1.354, 103.944, (_st("Tampines", "淡滨尼", "East-West Line", "东西线"),)),
          District("Jurong East", "裕廊东", "Jurong East", 1.333, 103.742, (_st("Jurong East", "裕廊东", "East-West Line", "东西线"),)),
          District("Toa Payoh", "大巴窑", "Toa Payoh", 1.334, 103.850, (_st("Toa Payoh", "大巴窑", "North-South Line", "南北线"),)),
          District("Bishan", "碧山", "Bishan", 1.351, 103.848, (_st("Bishan", "碧山", "North-South Line", "南北线"),)),
          District("Queenstown", "女皇镇", "Queenstown", 1.294, 103.806, (_st("Queenstown", "女皇镇", "East-West Line", "东西线"),)),
          District("Punggol", "榜鹅", "Punggol", 1.405, 103.902, (_st("Punggol", "榜鹅", "North East Line", "东北线"),))),
         (Place("National University of Singapore", "新加坡国立大学", "Xinjiapo Guoli Daxue", ("NUS", "国大")),
          Place("Nanyang Technological University", "南洋理工大学", "Nanyang Ligong Daxue", ("NTU", "南大"))),
         "8### ####", "######"),
    City("newyork", Place("New York", "纽约", "Niuyue", ("NYC", "New York City")), Place("New York", "纽约州", "Niuyue Zhou", ("NY", "New York State")),
         Place("United States", "美国", "Meiguo", ("USA", "US", "America")), "en", "-05:00", "美国", "United States",
         "Subway", "纽约地铁", "$", "USD",
         (District("Brooklyn", "布鲁克林", "Brooklyn", 40.678, -73.944, (_st("Bedford Av", "贝德福德大道", "L train", "L线"),)),
          District("Manhattan", "曼哈顿", "Manhattan", 40.776, -73.971, (_st("14 St-Union Sq", "联合广场", "L train", "L线"),)),
          District("Queens", "皇后区", "Queens", 40.728, -73.794,
                   (_st("Jackson Hts-Roosevelt Av", "杰克逊高地", "7 train", "7号线"),)),
          District("The Bronx", "布朗克斯", "Bronx", 40.845, -73.865, (_st("Fordham Rd", "福德汉姆路", "D train", "D线"),))),
         (Place("New York University", "纽约大学", "Niuyue Daxue", ("NYU",)),
          Place("Columbia University", "哥伦比亚大学", "Gelunbiya Daxue", ("Columbia",))),
         "(###) ###-####", "11###"),
    City("london", Place("London", "伦敦", "Lundun", ()), Place("England", "英格兰", "Yinggelan", ("Greater London",)),
         Place("United Kingdom", "英国", "Yingguo", ("UK", "Britain", "Great Britain")), "en", "+00:00", "英国", "United Kingdom",
         "Underground", "伦敦地铁", "£", "GBP",
         (District("Camden", "卡姆登", "Camden", 51.539, -0.142, (_st("Camden Town", "卡姆登镇", "Northern line", "北线"),)),
          District("Hackney", "哈克尼", "Hackney", 51.545, -0.055, (_st("Hackney Central", "哈克尼中央", "Overground", "地上铁"),)),
          District("Islington", "伊斯灵顿", "Islington", 51.538, -0.102, (_st("Angel", "安琪站", "Northern line", "北线"),)),
          District("Southwark", "萨瑟克", "Southwark", 51.503, -0.087, (_st("London Bridge", "伦敦桥", "Jubilee line", "银禧线"),)),
          District("Lambeth", "兰贝斯", "Lambeth", 51.462, -0.115, (_st("Brixton", "布里克斯顿", "Victoria line", "维多利亚线"),)),
          District("Tower Hamlets", "塔村", "Tower Hamlets", 51.505, -0.020, (_st("Canary Wharf", "金丝雀码头", "Jubilee line", "银禧线"),))),
         (Place("University College London", "伦敦大学学院", "Lundun Daxue Xueyuan", ("UCL",)),
          Place("King's College London", "伦敦国王学院", "Lundun Guowang Xueyuan", ("KCL",))),
         "07### ######", "A## #AA"),
    City("sydney", Place("Sydney", "悉尼", "Xini", ("SYD",)), Place("New South Wales", "新南威尔士州", "Xinnan Weiershi Zhou", ("NSW",)),
         Place("Australia", "澳大利亚", "Aodaliya", ("AU", "Aus", "澳洲")), "en", "+11:00", "澳大利亚", "Australia",
         "Sydney Trains", "悉尼火车", "A$", "AUD",
         (District("Parramatta", "帕拉马塔", "Parramatta", -33.815, 151.001, (_st("Parramatta", "帕拉马塔", "T1 line", "T1线"),)),
          District("Chatswood", "查茨伍德", "Chatswood", -33.797, 151.180, (_st("Chatswood", "查茨伍德", "T1 line", "T1线"),)),
          District("Newtown", "纽镇", "Newtown", -33.897, 151.179, (_st("Newtown", "纽镇", "T2 line", "T2线"),)),
          District("Bondi", "邦迪", "Bondi", -33.891, 151.250, (_st("Bondi Junction", "邦迪枢纽", "T4 line", "T4线"),))),
         (Place("The University of Sydney", "悉尼大学", "Xini Daxue", ("USYD",)),
          Place("UNSW Sydney", "新南威尔士大学", "Xinnan Weiershi Daxue", ("UNSW",))),
         "04## ### ###", "2###"),
    City("toronto", Place("Toronto", "多伦多", "Duolunduo", ("TO",)), Place("Ontario", "安大略省", "Andalue Sheng", ("ON",)),
         Place("Canada", "加拿大", "Jianada", ("CA",)), "en", "-05:00", "加拿大", "Canada", "TTC subway", "多伦多地铁", "C$", "CAD",
         (District("Scarborough", "士嘉堡", "Scarborough", 43.777, -79.231, (_st("Kennedy", "肯尼迪站", "Line 2", "2号线"),)),
          District("North York", "北约克", "North York", 43.761, -79.411, (_st("Finch", "芬治站", "Line 1", "1号线"),)),
          District("Etobicoke", "怡陶碧谷", "Etobicoke", 43.644, -79.522, (_st("Kipling", "基普林站", "Line 2", "2号线"),)),
          District("Downtown Toronto", "多伦多市中心", "Downtown", 43.653, -79.383, (_st("Union", "联合车站", "Line 1", "1号线"),))),
         (Place("University of Toronto", "多伦多大学", "Duolunduo Daxue", ("UofT", "U of T")),
          Place("York University", "约克大学", "Yueke Daxue", ("YorkU",))),
         "(416) ###-####", "M#A #A#"),
)

CITY_BY_KEY = {c.key: c for c in CITIES}

# Trip destinations (travel history and "trip abroad" decoys): name, zh, country, country zh, ip label zh/en, lat, lon.
@dataclass(frozen=True)
class Destination:
    name: Place
    country: Place
    ip_zh: str
    ip_en: str
    lat: float
    lon: float
    landmark_en: str
    landmark_zh: str


DESTINATIONS: tuple[Destination, ...] = (
    Destination(Place("Tokyo", "东京", "Dongjing"), Place("Japan", "日本", "Riben"), "日本", "Japan", 35.676, 139.650, "Sensō-ji", "浅草寺"),
    Destination(Place("Osaka", "大阪", "Daban"), Place("Japan", "日本", "Riben"), "日本", "Japan", 34.694, 135.502, "Osaka Castle", "大阪城"),
    Destination(Place("Bangkok", "曼谷", "Mangu"), Place("Thailand", "泰国", "Taiguo"), "泰国", "Thailand", 13.756, 100.502, "Wat Arun", "郑王庙"),
    Destination(Place("Seoul", "首尔", "Shouer"), Place("South Korea", "韩国", "Hanguo"), "韩国", "South Korea", 37.567, 126.978, "Gyeongbokgung", "景福宫"),
    Destination(Place("Paris", "巴黎", "Bali"), Place("France", "法国", "Faguo"), "法国", "France", 48.857, 2.352, "Louvre", "卢浮宫"),
    Destination(Place("Rome", "罗马", "Luoma"), Place("Italy", "意大利", "Yidali"), "意大利", "Italy", 41.903, 12.496, "Colosseum", "斗兽场"),
    Destination(Place("Bali", "巴厘岛", "Balidao"), Place("Indonesia", "印度尼西亚", "Yindunixiya"), "印度尼西亚", "Indonesia", -8.340, 115.092, "Uluwatu Temple", "情人崖"),
    Destination(Place("Reykjavik", "雷克雅未克", "Leikeyaweike"), Place("Iceland", "冰岛", "Bingdao"), "冰岛", "Iceland", 64.147, -21.942, "Hallgrímskirkja", "哈尔格林姆斯教堂"),
    Destination(Place("Chiang Mai", "清迈", "Qingmai"), Place("Thailand", "泰国", "Taiguo"), "泰国", "Thailand", 18.788, 98.985, "Doi Suthep", "素贴山"),
    Destination(Place("Kyoto", "京都", "Jingdu"), Place("Japan", "日本", "Riben"), "日本", "Japan", 35.012, 135.768, "Fushimi Inari", "伏见稻荷"),
    Destination(Place("Xi'an", "西安", "Xi'an"), Place("China", "中国", "Zhongguo"), "陕西", "China", 34.341, 108.940, "Terracotta Army", "兵马俑"),
    Destination(Place("Lijiang", "丽江", "Lijiang"), Place("China", "中国", "Zhongguo"), "云南", "China", 26.855, 100.227, "Old Town of Lijiang", "丽江古城"),
)

# Invented place-name parts. Chinese compounds: two-syllable prefix + suffix.
COMPOUND_PREFIX = (("Lianhua", "莲花"), ("Jinxiu", "锦绣"), ("Haiyue", "海月"), ("Yunhai", "云海"), ("Cuiwei", "翠微"),
                   ("Lanting", "兰亭"), ("Bihai", "碧海"), ("Songlin", "松林"), ("Tianyue", "天悦"), ("Qinghe", "清禾"),
                   ("Meilin", "梅林"), ("Xiangmi", "香蜜"), ("Jinghu", "镜湖"), ("Yunjing", "云景"), ("Heyuan", "禾源"),
                   ("Lujing", "鹭景"), ("Fengya", "枫雅"), ("Chenguang", "晨光"))
COMPOUND_SUFFIX = (("Garden", "花园", "Huayuan"), ("Court", "苑", "Yuan"), ("Residence", "公馆", "Gongguan"),
                   ("Village", "新村", "Xincun"), ("Mansion", "华庭", "Huating"), ("Bay", "湾", "Wan"))
EN_COMPOUND_PREFIX = ("Maple", "Harbourview", "Linden", "Ashford", "Kingsley", "Willow", "Birchwood", "Riverside",
                      "Halcyon", "Marlowe", "Juniper", "Foxglove", "Cedar", "Wexford", "Larkspur", "Bellamy")
EN_COMPOUND_SUFFIX = ("Court", "House", "Apartments", "Lofts", "Terrace", "Mews", "Place", "Residences")
SG_COMPOUND_SUFFIX = ("Greenview", "Parkview", "Vista", "Crest", "Grove")
SHOP_PARTS_EN = ("Driftwood", "Little Fern", "Sparrow", "Copper Kettle", "Blue Door", "Paper Moon", "Tidal", "Honeycomb",
                 "North Star", "Oak & Ember", "Marigold", "Pebble")
SHOP_PARTS_ZH = (("Muyu", "木鱼"), ("Qianshan", "浅山"), ("Yeguang", "野光"), ("Xiaoman", "小满"), ("Banmu", "半亩"),
                 ("Jiuli", "九里"), ("Nanfeng", "南风"), ("Baiyu", "白屿"), ("Shiguang", "拾光"), ("Laoyao", "老窑"))
COMPANY_PARTS = (("Huiyun", "汇云"), ("Xinghai", "星海"), ("Ruida", "睿达"), ("Zhiyuan", "致远"), ("Hengtong", "恒通"),
                 ("Lanxin", "蓝芯"), ("Jiahe", "嘉禾"), ("Tianchen", "天辰"), ("Boyu", "博宇"), ("Mingce", "明策"))
EN_COMPANY_PARTS = ("Northwind", "Bluepeak", "Halberd", "Quillon", "Arcadia", "Sterling Ash", "Vantage Rowe", "Keystone",
                    "Lumen", "Orchard & Vale", "Brightwater", "Corvid")




@dataclass
class Compound:
    en: str
    zh: str
    pinyin: str = ""
    extra_aliases: list[str] = field(default_factory=list)

    def aliases(self) -> list[str]:
        return [a for a in dict.fromkeys([self.zh, self.pinyin, *self.extra_aliases]) if a and a != self.en]


def invent_compound(rng, city: City) -> Compound:
    if city.country.en == "China" and city.key != "hongkong":
        (pe, pz), (se, sz, sp) = rng.choice(COMPOUND_PREFIX), rng.choice(COMPOUND_SUFFIX)
        return Compound(f"{pe} {se}", f"{pz}{sz}", f"{pe} {sp}")
    if city.key == "hongkong":
        (pe, pz), (se, sz, sp) = rng.choice(COMPOUND_PREFIX), rng.choice(COMPOUND_SUFFIX[:2])
        return Compound(f"{pe} {se}", f"{pz}{sz}", f"{pe} {sp}")
    if city.key == "singapore":
        return Compound(f"{rng.choice(EN_COMPOUND_PREFIX)} {rng.choice(SG_COMPOUND_SUFFIX)}", "")
    return Compound(f"{rng.choice(EN_COMPOUND_PREFIX)} {rng.choice(EN_COMPOUND_SUFFIX)}", "")


def fill_pattern(rng, pattern: str) -> str:
    """'#' -> digit, 'A' -> capital letter (phone numbers, postcodes)."""
    out = []
    for ch in pattern:
        if ch == "#":
            out.append(str(rng.randint(0, 9)))
        elif ch == "A":
            out.append(rng.choice("ABCDEFGHJKLMNPRSTUVWXY"))
        else:
            out.append(ch)
    return "".join(out)
