"""Lexicons (EN + ZH) shared by the extractors. Canonical values are English; Chinese forms
map onto them and are kept as data["original"] by the extractors."""
from __future__ import annotations

ZH_NUM = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}


def zh_int(s: str | None) -> int | None:
    """'28' / '二十八' / '十二' / '三十' -> int."""
    if not s:
        return None
    if s.isdigit():
        return int(s)
    if "十" in s:
        a, _, b = s.partition("十")
        tens = ZH_NUM.get(a, 1) if a else 1
        ones = ZH_NUM.get(b, 0) if b else 0
        return tens * 10 + ones
    if all(c in ZH_NUM for c in s):
        v = 0
        for c in s:
            v = v * 10 + ZH_NUM[c]
        return v
    return None


DEMONYMS = {
    "American": "United States", "Chinese": "China", "British": "United Kingdom", "English": "United Kingdom",
    "Scottish": "United Kingdom", "Welsh": "United Kingdom", "Brit": "United Kingdom", "Irish": "Ireland",
    "Canadian": "Canada", "Mexican": "Mexico", "Brazilian": "Brazil", "Argentinian": "Argentina", "Argentine": "Argentina",
    "Chilean": "Chile", "Colombian": "Colombia", "Peruvian": "Peru", "Venezuelan": "Venezuela", "Cuban": "Cuba",
    "French": "France", "German": "Germany", "Italian": "Italy", "Spanish": "Spain", "Portuguese": "Portugal",
    "Dutch": "Netherlands", "Belgian": "Belgium", "Swiss": "Switzerland", "Austrian": "Austria", "Swedish": "Sweden",
    "Swede": "Sweden", "Norwegian": "Norway", "Danish": "Denmark", "Dane": "Denmark", "Finnish": "Finland",
    "Icelandic": "Iceland", "Polish": "Poland", "Czech": "Czechia", "Hungarian": "Hungary", "Greek": "Greece",
    "Romanian": "Romania", "Bulgarian": "Bulgaria", "Ukrainian": "Ukraine", "Russian": "Russia", "Turkish": "Turkey",
    "Israeli": "Israel", "Iranian": "Iran", "Persian": "Iran", "Iraqi": "Iraq", "Syrian": "Syria", "Lebanese": "Lebanon",
    "Egyptian": "Egypt", "Moroccan": "Morocco", "Nigerian": "Nigeria", "Kenyan": "Kenya", "Ethiopian": "Ethiopia",
    "Ghanaian": "Ghana", "South African": "South Africa", "Indian": "India", "Pakistani": "Pakistan",
    "Bangladeshi": "Bangladesh", "Sri Lankan": "Sri Lanka", "Nepali": "Nepal", "Nepalese": "Nepal",
    "Japanese": "Japan", "Korean": "South Korea", "South Korean": "South Korea", "Vietnamese": "Vietnam", "Thai": "Thailand",
    "Filipino": "Philippines", "Filipina": "Philippines", "Indonesian": "Indonesia", "Malaysian": "Malaysia",
    "Singaporean": "Singapore", "Burmese": "Myanmar", "Cambodian": "Cambodia", "Taiwanese": "Taiwan",
    "Hong Konger": "Hong Kong", "Australian": "Australia", "Aussie": "Australia", "Kiwi": "New Zealand",
    "New Zealander": "New Zealand", "Saudi": "Saudi Arabia", "Emirati": "United Arab Emirates", "Mongolian": "Mongolia",
    "Kazakh": "Kazakhstan", "Jamaican": "Jamaica", "Haitian": "Haiti", "Dominican": "Dominican Republic",
    "Puerto Rican": "Puerto Rico", "Slovak": "Slovakia", "Serbian": "Serbia", "Croatian": "Croatia",
}
DEMONYMS.update({k.lower(): v for k, v in list(DEMONYMS.items())})

# ----------------------------------------------------------------- occupations
# role | sector | English terms | Chinese terms
_OCC_TABLE = """
Nurse|Healthcare|nurse,registered nurse,rn,nursing assistant,cna,lpn,midwife,nurse practitioner|护士,护士长,助产士,护理师
Doctor|Healthcare|doctor,physician,gp,surgeon,resident doctor,medical resident,attending physician,md,cardiologist,pediatrician,anesthesiologist,psychiatrist,radiologist,oncologist,neurologist,dermatologist|医生,大夫,主治医师,住院医师,外科医生,内科医生,儿科医生,规培医生
Dentist|Healthcare|dentist,orthodontist,dental hygienist|牙医,口腔医生
Pharmacist|Healthcare|pharmacist|药剂师,药师
Physical Therapist|Healthcare|physical therapist,physiotherapist,occupational therapist|康复师,理疗师
Paramedic|Healthcare|paramedic,emt|急救员
Therapist|Healthcare|therapist,counselor,counsellor,psychologist,social worker|心理咨询师,心理医生,社工
Veterinarian|Healthcare|veterinarian,vet tech,veterinary nurse|兽医
Caregiver|Healthcare|caregiver,care worker,home health aide|护工,保姆,月嫂,育儿嫂
Teacher|Education|teacher,schoolteacher,kindergarten teacher,preschool teacher,substitute teacher,esl teacher,english teacher,math teacher,tutor,educator|老师,教师,班主任,幼师,家教,英语老师,数学老师,语文老师,小学老师,中学老师
Professor|Education|professor,lecturer,associate professor,assistant professor,adjunct|教授,副教授,讲师,大学老师,高校老师
Researcher|Research|researcher,research scientist,scientist,postdoc,research assistant,lab technician,biologist,chemist,physicist|研究员,科研人员,博士后,科研狗,实验员
Student|Education|student,undergrad,grad student,phd student,college student,university student,high schooler,med student,law student|学生,大学生,研究生,博士生,硕士生,留学生,学生党,高中生,医学生,法学生,师范生,美术生,体育生,研究生党
Software Engineer|Technology|software engineer,software developer,programmer,coder,developer,web developer,frontend developer,backend developer,full stack developer,full-stack developer,devops engineer,sre,swe,mobile developer,ios developer,android developer,game developer|程序员,码农,软件工程师,开发工程师,前端,后端,全栈工程师,前端工程师,后端工程师,测试工程师,运维
Data Analyst|Technology|data analyst,data scientist,business analyst,bi analyst,statistician,analytics engineer,data engineer|数据分析师,数据科学家,数据工程师,分析师
IT Specialist|Technology|it specialist,sysadmin,system administrator,it support,network engineer,help desk,cybersecurity analyst,security engineer|网管,网络工程师,安全工程师
Product Manager|Technology|product manager,project manager,program manager,scrum master|产品经理,项目经理
Designer|Arts & Design|designer,graphic designer,ux designer,ui designer,interior designer,fashion designer,web designer,product designer|设计师,平面设计师,室内设计师,UI设计师,美工
Artist|Arts & Design|artist,painter,illustrator,sculptor,animator,tattoo artist,ceramicist|画家,插画师,艺术家,雕塑家,原画师
Musician|Arts & Entertainment|musician,singer,guitarist,pianist,drummer,composer,dj,music teacher,violinist|音乐人,歌手,钢琴老师,乐手,作曲家,DJ
Actor|Arts & Entertainment|actor,actress,performer,comedian,dancer,choreographer|演员,舞蹈老师,舞者
Photographer|Arts & Design|photographer,videographer,filmmaker,video editor,cinematographer|摄影师,摄像师,剪辑师,导演
Writer|Media|writer,author,novelist,journalist,reporter,editor,copywriter,blogger,content creator,influencer,youtuber,streamer,podcaster,translator|作家,记者,编辑,文案,博主,自媒体,主播,网红,译者,翻译
Chef|Hospitality|chef,cook,line cook,sous chef,pastry chef,head chef,baker,caterer|厨师,主厨,大厨,面点师,烘焙师,西点师
Server|Hospitality|waiter,waitress,server,bartender,barista,host,hostess,sommelier|服务员,调酒师,咖啡师
Hotel Staff|Hospitality|receptionist,concierge,hotel manager,housekeeper|前台,酒店经理
Retail Worker|Retail|cashier,retail worker,sales associate,store clerk,shop assistant,store manager,shopkeeper|收银员,店员,导购,店长,营业员
Sales Representative|Sales|sales rep,sales representative,salesperson,salesman,saleswoman,account executive,account manager,sales manager,real estate agent,realtor,insurance agent,car salesman|销售,业务员,房产中介,中介,保险经纪人,卖保险的,销售经理
Marketing Specialist|Marketing|marketing specialist,marketer,marketing manager,digital marketer,seo specialist,social media manager,brand manager,pr specialist,public relations,advertising executive|市场专员,市场营销,营销,运营,新媒体运营,品牌经理,公关
Accountant|Finance|accountant,cpa,bookkeeper,auditor,tax preparer,controller|会计,审计,出纳,注册会计师,财务
Financial Advisor|Finance|financial advisor,financial adviser,financial planner,wealth manager,investment advisor,stockbroker,broker|理财顾问,理财经理,投资顾问,客户经理
Banker|Finance|banker,bank teller,loan officer,investment banker,trader,analyst at a bank,actuary,quant|银行职员,柜员,投行,交易员,精算师,银行柜员
Lawyer|Legal|lawyer,attorney,solicitor,barrister,paralegal,legal assistant,public defender,prosecutor,judge|律师,法官,检察官,法务,律师助理
Police Officer|Public Safety|police officer,cop,detective,sheriff,deputy,state trooper|警察,民警,辅警,刑警,交警
Firefighter|Public Safety|firefighter,fireman,firefighter/emt|消防员
Soldier|Military|soldier,veteran,army officer,navy officer,servicemember,marine corps veteran|军人,士兵,当兵
Civil Servant|Government|civil servant,government employee,public servant,government worker,city clerk,postal worker,mail carrier,diplomat|公务员,体制内,事业单位,街道办,邮递员
Social Worker|Social Services|case worker,youth worker,community worker|社区工作者,社区网格员
Mechanic|Skilled Trades|mechanic,auto mechanic,car mechanic,technician,auto technician,diesel mechanic|汽修工,修车师傅,机修工,汽车修理工
Electrician|Skilled Trades|electrician,lineman|电工
Plumber|Skilled Trades|plumber,pipefitter|水管工
Carpenter|Skilled Trades|carpenter,woodworker,joiner,cabinet maker|木匠,木工
Construction Worker|Construction|construction worker,builder,bricklayer,roofer,welder,contractor,laborer,foreman|建筑工人,工地,包工头,焊工,农民工
Engineer|Engineering|engineer,civil engineer,mechanical engineer,electrical engineer,chemical engineer,structural engineer,aerospace engineer,hardware engineer|工程师,土木工程师,机械工程师,电气工程师,结构工程师
Architect|Engineering|architect,urban planner|建筑师,规划师
Driver|Transportation|driver,truck driver,trucker,taxi driver,uber driver,lyft driver,bus driver,delivery driver,courier,chauffeur,rideshare driver|司机,滴滴司机,网约车司机,出租车司机,快递员,外卖员,外卖小哥,骑手,货车司机
Pilot|Transportation|pilot,airline pilot,flight attendant,air traffic controller,cabin crew|飞行员,机长,空姐,空乘
Factory Worker|Manufacturing|factory worker,machine operator,assembly line worker,warehouse worker,forklift driver|工人,厂里,普工,流水线,仓管
Farmer|Agriculture|farmer,rancher,fisherman,landscaper|农民,果农,渔民,种地
Manager|Business|manager,team lead,supervisor,director,executive,ceo,cto,cfo,consultant,management consultant|经理,主管,总监,CEO,咨询师,顾问
Business Owner|Business|business owner,small business owner,entrepreneur,founder,co-founder,shop owner,restaurant owner,store owner,self-employed|老板,创业者,合伙人,个体户,开店的,店主
HR Specialist|Business|hr specialist,recruiter,hr manager,human resources|人事,HR,招聘专员,猎头
Administrative Assistant|Business|administrative assistant,secretary,office manager,executive assistant,clerk,receptionist|文员,行政,秘书,助理
Librarian|Education|librarian|图书管理员
Hairdresser|Personal Care|hairdresser,hairstylist,barber,stylist,makeup artist,nail technician,esthetician,beautician|理发师,发型师,化妆师,美甲师,美容师
Fitness Trainer|Fitness|personal trainer,fitness instructor,yoga instructor,yoga teacher,coach,pilates instructor|健身教练,瑜伽老师,私教,教练
Athlete|Sports|athlete,professional athlete,pro player|运动员
Security Guard|Public Safety|security guard,bouncer|保安
Cleaner|Services|cleaner,janitor,housekeeper,custodian|保洁,清洁工,阿姨
Homemaker|Household|homemaker,stay-at-home mom,stay-at-home dad,stay at home mom,stay at home dad,housewife,sahm,sahd|家庭主妇,全职妈妈,全职太太,全职宝妈
Retired|Retired|retiree|退休人员,退休教师
"""

OCCUPATIONS: list[dict] = []
for _line in _OCC_TABLE.strip().splitlines():
    _role, _sector, _en, _zh = _line.split("|")
    OCCUPATIONS.append({"role": _role, "sector": _sector, "en": [w.strip() for w in _en.split(",") if w.strip()],
                        "zh": [w.strip() for w in _zh.split(",") if w.strip()]})

# specialties: a term -> (role, specialty); the role is implied
SPECIALTIES = {
    "icu nurse": ("Nurse", "ICU"), "er nurse": ("Nurse", "Emergency"), "icu": ("Nurse", "ICU"),
    "pediatric nurse": ("Nurse", "Pediatrics"), "oncology nurse": ("Nurse", "Oncology"),
    "surgical nurse": ("Nurse", "Surgery"), "labor and delivery nurse": ("Nurse", "Obstetrics"),
    "cardiologist": ("Doctor", "Cardiology"), "pediatrician": ("Doctor", "Pediatrics"), "surgeon": ("Doctor", "Surgery"),
    "psychiatrist": ("Doctor", "Psychiatry"), "radiologist": ("Doctor", "Radiology"), "oncologist": ("Doctor", "Oncology"),
    "anesthesiologist": ("Doctor", "Anesthesiology"), "dermatologist": ("Doctor", "Dermatology"), "neurologist": ("Doctor", "Neurology"),
    "frontend developer": ("Software Engineer", "Frontend"), "backend developer": ("Software Engineer", "Backend"),
    "full stack developer": ("Software Engineer", "Full stack"), "full-stack developer": ("Software Engineer", "Full stack"),
    "ios developer": ("Software Engineer", "iOS"), "android developer": ("Software Engineer", "Android"),
    "game developer": ("Software Engineer", "Games"), "devops engineer": ("Software Engineer", "DevOps"),
    "math teacher": ("Teacher", "Mathematics"), "english teacher": ("Teacher", "English"), "esl teacher": ("Teacher", "English"),
    "kindergarten teacher": ("Teacher", "Kindergarten"), "preschool teacher": ("Teacher", "Preschool"),
    "pastry chef": ("Chef", "Pastry"), "sous chef": ("Chef", "Sous chef"),
    "civil engineer": ("Engineer", "Civil"), "mechanical engineer": ("Engineer", "Mechanical"),
    "electrical engineer": ("Engineer", "Electrical"), "chemical engineer": ("Engineer", "Chemical"),
    "structural engineer": ("Engineer", "Structural"), "aerospace engineer": ("Engineer", "Aerospace"),
    "hardware engineer": ("Engineer", "Hardware"), "data scientist": ("Data Analyst", "Data science"),
    "data engineer": ("Data Analyst", "Data engineering"), "er nurse": ("Nurse", "Emergency"),
    "土木工程师": ("Engineer", "Civil"), "机械工程师": ("Engineer", "Mechanical"), "电气工程师": ("Engineer", "Electrical"),
    "急诊科护士": ("Nurse", "Emergency"), "icu护士": ("Nurse", "ICU"), "儿科护士": ("Nurse", "Pediatrics"),
    "儿科医生": ("Doctor", "Pediatrics"), "外科医生": ("Doctor", "Surgery"), "内科医生": ("Doctor", "Internal medicine"),
    "前端工程师": ("Software Engineer", "Frontend"), "后端工程师": ("Software Engineer", "Backend"), "前端": ("Software Engineer", "Frontend"),
    "后端": ("Software Engineer", "Backend"), "测试工程师": ("Software Engineer", "QA"), "英语老师": ("Teacher", "English"),
    "数学老师": ("Teacher", "Mathematics"), "语文老师": ("Teacher", "Chinese"), "幼师": ("Teacher", "Kindergarten"),
}

# Indirect cues: what people in a job talk about (role, sector, confidence). Generic enough to
# transfer; each needs first-person context to fire.
OCC_INDIRECT_EN = [
    (r"\bi\s+teach\s+(?:\d+\w*\s+grade|kindergarten|preschool|high\s+school|middle\s+school|elementary|(?:\w+\s+)?(?:class|classes)|english|math|maths|science|history|art|music|at)\b|\bmy\s+(?:\d+\w*\s+)?(?:grade\s+)?(?:students|pupils|class(?:room)?|kiddos|kindergarteners|homeroom)\b|\bgrading\s+(?:papers|essays|exams|tests)\b|\blesson\s+plans?\b|\bparent-teacher\b|\bteaching\s+(?:\w+\s+)?(?:class|grade|kids|students)\b|\bstaff\s+room\b|\bmy\s+teaching\b|\bmy\s+(?:school\s+)?classroom\b", "Teacher", "Education", 0.5),
    (r"\bmy\s+patients?\b|\b(?:night|day|12[- ]hour|double)\s+shifts?\s+(?:at|on)\s+the\s+(?:ward|hospital|icu|er|unit)\b|\bon\s+the\s+ward\b|\bcharge\s+nurse\b|\bscrubs\b[^.]{0,30}\bshift\b|\bhospital\s+shift\b|\bcharting\b", "Nurse", "Healthcare", 0.45),
    (r"\bcode\s+reviews?\b|\bpull\s+requests?\b|\bmerge\s+conflicts?\b|\bdeploy(?:ed|ing)?\s+to\s+prod(?:uction)?\b|\bon-?call\s+rotation\b|\bstand-?up\s+meeting\b|\bsprint\s+planning\b|\bdebugging\s+(?:my|our|the|this)\s+(?:code|app|service|build)\b|\bmy\s+(?:codebase|repo)\b|\bpush(?:ed|ing)?\s+(?:a\s+)?(?:fix|commit|code)\b|\bwrote\s+(?:some\s+)?code\b", "Software Engineer", "Technology", 0.5),
    (r"\b(?:sql\s+quer(?:y|ies)|my\s+dashboards?|data\s+pipelines?|pivot\s+tables?|cleaning\s+(?:the\s+)?data(?:set)?|a/b\s+tests?|regression\s+models?|tableau|power\s+bi|(?:at\s+work\s+)?analy[sz]ing\s+(?:the\s+)?data|data\s+analysis\s+at\s+work)\b", "Data Analyst", "Technology", 0.4),
    (r"\b(?:in\s+the\s+kitchen\s+(?:at\s+work|tonight|during\s+service)|dinner\s+service|(?:the\s+)?lunch\s+rush|my\s+(?:kitchen\s+)?(?:line(?!\s+of\s+(?:work|business|duty))|brigade)|menu\s+(?:for\s+)?(?:the\s+)?restaurant|plating\s+(?:up\s+)?(?:for\s+)?(?:service|orders|tickets|covers)|prep\s+shift|86(?:'d|ed))\b", "Chef", "Hospitality", 0.4),
    (r"\b(?:under\s+the\s+hood|(?:fixed|fixing|rebuilt|rebuilding)\s+(?:an?\s+|the\s+|this\s+)?(?:\w+\s+)?(?:engine|transmission|brakes?|carburetor|clutch)|at\s+the\s+(?:garage|shop)\s+today|oil\s+changes?|customer'?s\s+car|diagnos(?:ed|ing)\s+(?:a|the)\s+(?:car|engine))\b", "Mechanic", "Skilled Trades", 0.45),
    (r"\b(?:my\s+(?:gallery\s+show|solo\s+(?:show|exhibition)|art\s+commissions?|clients?'?\s+commissions?)|(?:finished|delivered)\s+(?:a|the|my)\s+commission(?:ed\s+piece)?)\b", "Artist", "Arts & Design", 0.4),
    (r"\b(?:my\s+(?:lab|research|experiments?|thesis|dissertation|grant\s+proposal|paper\s+(?:got|was)\s+accepted)|peer\s+review|submitted\s+(?:a|my|our)\s+(?:paper|manuscript)|at\s+the\s+lab|conference\s+paper)\b", "Researcher", "Research", 0.4),
    (r"\b(?:my\s+clients'?\s+(?:portfolios?|investments?|retirement)|retirement\s+planning\s+for\s+clients|portfolio\s+reviews?\s+with\s+clients)\b", "Financial Advisor", "Finance", 0.5),
    (r"\b(?:my\s+(?:marketing\s+)?campaigns?|seo\s+strategy|brand\s+strategy|ad\s+spend|conversion\s+rates?|engagement\s+metrics)\b", "Marketing Specialist", "Marketing", 0.4),
    (r"\b(?:my\s+(?:rig|cab|passengers?|deliveries|delivery\s+route)|long[- ]haul|miles\s+on\s+the\s+road\s+today|picked\s+up\s+(?:a\s+)?passengers?|behind\s+the\s+wheel\s+all\s+day)\b", "Driver", "Transportation", 0.4),
    (r"\b(?:my\s+(?:clients?'?\s+case|caseload|court\s+date|deposition)|billable\s+hours|closing\s+arguments?|the\s+bar\s+exam)\b", "Lawyer", "Legal", 0.45),
    (r"\b(?:my\s+editor|(?:filed|filing)\s+(?:my|the)\s+(?:story|piece|copy)|press\s+deadline|my\s+byline)\b", "Writer", "Media", 0.35),
    (r"\b(?:group\s+project|finals\s+week|during\s+finals|my\s+professor|my\s+lecturer|my\s+dorm|(?:my|the)\s+(?:lecture|seminar)s?\b|exam\s+season|midterms?|my\s+classmates|my\s+tutorials?|revision\s+for\s+(?:my\s+)?exams?)", "Student", "Education", 0.35),
    (r"\b(?:backend|frontend|front-end|back-end|dev|engineering|platform|infra|sre|devops|mobile)\s+team\b", "Software Engineer", "Technology", 0.4),
    (r"\b(?:i|we)\s+(?:run|own)\s+(?:a|an|my|our)\s+(?:small\s+|little\s+|family\s+|tiny\s+|own\s+)?(?:\w+\s+)?(?:bakery|restaurant|caf[eé]|coffee\s+shop|shop|store|business|salon|bar|farm|studio|boutique|startup|company|agency)\b", "Business Owner", "Business", 0.6),
    (r"\b(?:public\s+service|government\s+office|my\s+(?:department|ministry|agency)\s+at\s+city\s+hall|civil\s+service)\b", "Civil Servant", "Government", 0.35),
]
OCC_INDIRECT_ZH = [
    (r"我的?学生|我们班(?:的)?(?:孩子|学生)|改作业|批改|备课|上课铃|家长会|监考|公开课|教案", "Teacher", "Education", 0.5),
    (r"夜班|值班|查房|病房|我的?病人|护士站|交班|规培|门诊(?:太忙|好多)", "Nurse", "Healthcare", 0.4),
    (r"写代码|改bug|修bug|debug|代码评审|code ?review|(?:代码|版本|项目|需求)上线|加班改需求|需求评审|提测|发版|996", "Software Engineer", "Technology", 0.45),
    (r"跑数据|做报表|写SQL|数据看板|取数", "Data Analyst", "Technology", 0.4),
    (r"后厨|出餐|备菜|颠勺", "Chef", "Hospitality", 0.4),
    (r"修车|换机油|发动机|变速箱|汽修厂", "Mechanic", "Skilled Trades", 0.35),
    (r"画展|我的画|接稿|约稿|画稿", "Artist", "Arts & Design", 0.35),
    (r"实验室|做实验|课题组|发paper|审稿", "Researcher", "Research", 0.35),
    (r"研一|研二|研三|读研|读博|博一|博二|博三|大一|大二|大三|大四|导师催|组会|写论文", "Student", "Education", 0.45),
    (r"跑单|接单|拉客|送外卖|送快递|跑滴滴", "Driver", "Transportation", 0.45),
    (r"体制内|单位(?:领导|开会)|考公|上岸", "Civil Servant", "Government", 0.35),
    (r"(?:我|我们|自己)(?:和[\u4e00-\u9fff]{1,4})?(?:一起)?(?:开了?|经营)(?:一家|一个|个)?(?:小)?(?:店|餐厅|咖啡店|面包店|公司|工作室|花店|民宿)", "Business Owner", "Business", 0.6),
    (r"截稿|交稿|主编(?:在)?催|赶稿|改稿", "Writer", "Media", 0.4),
    (r"小组作业|期末考|期末周|考试周|选课|导员|辅导员|宿舍|室友|上课|教授布置|论文答辩|毕业论文", "Student", "Education", 0.35),
]

# ----------------------------------------------------------------- hobbies: canonical -> (EN terms, ZH terms)
HOBBIES: dict[str, tuple[list[str], list[str]]] = {
    "yoga": (["yoga", "vinyasa", "hot yoga"], ["瑜伽"]),
    "painting": (["painting", "watercolor", "watercolour", "oil painting", "acrylic painting", "paint"], ["画画", "油画", "水彩", "绘画"]),
    "drawing": (["drawing", "sketching", "doodling"], ["素描", "速写", "手绘"]),
    "gaming": (["gaming", "video games", "videogames", "playstation", "xbox", "nintendo", "switch games", "steam", "esports", "pc games", "gamer"], ["打游戏", "玩游戏", "王者荣耀", "原神", "电竞", "开黑", "游戏"]),
    "gardening": (["gardening", "my garden", "vegetable garden", "planting", "houseplants", "plants"], ["种花", "园艺", "养花", "种菜", "多肉"]),
    "chess": (["chess"], ["国际象棋", "下棋", "象棋", "围棋"]),
    "reading": (["reading", "books", "book club", "novel", "novels", "bookworm", "kindle"], ["看书", "读书", "阅读", "小说"]),
    "volunteering": (["volunteering", "volunteer", "volunteered", "charity work", "food bank", "soup kitchen"], ["志愿者", "做义工", "公益", "志愿服务"]),
    "coding": (["coding", "side project", "hackathon", "open source", "programming for fun"], ["编程", "写代码"]),
    "hiking": (["hiking", "hike", "hikes", "trail", "trails", "trekking", "backpacking"], ["徒步", "爬山", "登山"]),
    "woodworking": (["woodworking", "woodwork", "carpentry"], ["木工"]),
    "travel blogging": (["travel blogging", "travel blog", "travel vlog", "travel vlogging"], ["旅行博主", "旅游博主", "旅行vlog"]),
    "travel": (["traveling", "travelling", "wanderlust", "travel"], ["旅行", "旅游"]),
    "dancing": (["dancing", "dance class", "salsa", "ballet", "hip hop dance", "tango", "ballroom"], ["跳舞", "舞蹈", "街舞", "芭蕾", "广场舞"]),
    "birdwatching": (["birdwatching", "bird watching", "birding", "birdwatcher"], ["观鸟"]),
    "scuba diving": (["scuba diving", "scuba", "diving", "dive trip", "snorkeling", "freediving"], ["潜水", "浮潜"]),
    "baking": (["baking", "baked", "sourdough", "bake", "cupcakes"], ["烘焙", "烤蛋糕", "做面包", "烤面包"]),
    "cooking": (["cooking", "cooked", "cook", "recipes", "home cooking"], ["做饭", "下厨", "烹饪", "做菜"]),
    "calligraphy": (["calligraphy", "hand lettering"], ["书法", "练字"]),
    "photography": (["photography", "photographing", "my camera", "photo walk", "shooting photos"], ["摄影", "拍照", "扫街"]),
    # the finer hobby where the evidence names it (film is photography too: the value names both)
    "film photography": (["film photography", "film camera", "shooting film", "analog photography", "analogue photography",
                          "35mm film"], ["胶片", "胶卷", "菲林"]),
    "basketball": (["basketball", "hoops", "nba"], ["篮球", "打球"]),
    "cycling": (["cycling", "biking", "bike ride", "road bike", "mountain biking"], ["骑行", "骑车", "单车"]),
    "soccer": (["soccer", "football match", "five-a-side", "futsal"], ["足球", "踢球"]),
    "running": (["running", "jogging", "marathon", "half marathon", "5k", "10k", "runner", "ran"], ["跑步", "夜跑", "晨跑", "马拉松", "半马"]),
    "swimming": (["swimming", "swim", "laps in the pool"], ["游泳"]),
    "fitness": (["gym", "weightlifting", "lifting", "workout", "crossfit", "working out", "pilates"], ["健身", "撸铁", "普拉提", "练腿"]),
    "tennis": (["tennis"], ["网球"]), "badminton": (["badminton"], ["羽毛球"]), "table tennis": (["table tennis", "ping pong"], ["乒乓球"]),
    "golf": (["golf", "golfing"], ["高尔夫"]), "climbing": (["climbing", "bouldering", "rock climbing"], ["攀岩"]),
    "skiing": (["skiing", "snowboarding", "ski trip"], ["滑雪", "单板", "双板"]), "surfing": (["surfing", "surf"], ["冲浪"]),
    "camping": (["camping", "campfire", "tent"], ["露营"]), "fishing": (["fishing", "fly fishing"], ["钓鱼", "路亚"]),
    "knitting": (["knitting", "crochet", "crocheting", "sewing", "quilting", "embroidery"], ["织毛衣", "钩针", "刺绣", "十字绣"]),
    "music": (["guitar", "piano", "violin", "ukulele", "drums", "singing", "choir", "band practice", "karaoke"], ["弹吉他", "弹钢琴", "唱歌", "练琴", "尤克里里", "架子鼓", "K歌"]),
    "movies": (["movies", "cinema", "film buff", "movie night", "netflix"], ["看电影", "追剧", "电影"]),
    "anime": (["anime", "manga", "cosplay"], ["动漫", "二次元", "漫展", "cos"]),
    "board games": (["board games", "board game", "dungeons & dragons", "d&d", "tabletop"], ["桌游", "剧本杀", "狼人杀"]),
    "pottery": (["pottery", "ceramics"], ["陶艺"]), "writing": (["writing poetry", "creative writing", "journaling", "poetry"], ["写作", "写诗", "手账"]),
    "coffee": (["latte art", "pour-over", "home brewing coffee"], ["手冲咖啡"]), "wine tasting": (["wine tasting"], ["品酒"]),
    "meditation": (["meditation", "meditating", "mindfulness"], ["冥想", "打坐"]),
    "collecting": (["collecting", "vinyl records", "stamp collection", "lego"], ["收藏", "手办", "盲盒", "乐高", "集邮"]),
    "martial arts": (["martial arts", "karate", "taekwondo", "kung fu", "boxing", "muay thai", "jiu-jitsu", "bjj", "tai chi"], ["武术", "跆拳道", "拳击", "太极", "散打"]),
    "fashion": (["fashion", "outfit of the day", "ootd"], ["穿搭", "ootd"]), "makeup": (["makeup", "skincare routine"], ["化妆", "美妆", "护肤"]),
    "puzzles": (["crossword", "sudoku", "jigsaw puzzle", "puzzles"], ["拼图", "数独"]),
    "astronomy": (["stargazing", "astronomy", "telescope"], ["观星", "天文"]),
}
HOBBY_AMBIGUOUS = {"单车", "骑车", "看电影", "movie night", "paint", "plants", "cook", "cooked", "ran", "travel", "swim", "steam", "switch games", "tent", "surf",
                   "游戏", "打球", "骑车", "拍照", "电影", "收藏", "cos", "5k", "10k", "books", "trail", "trails", "bake",
                   "baked", "recipes", "gym", "workout", "drums", "fashion", "novel", "lego", "diving"}

# ----------------------------------------------------------------- health
HEALTH: dict[str, tuple[list[str], list[str]]] = {
    "diabetes": (["diabetes", "diabetic", "type 1 diabetes", "type 2 diabetes", "t1d", "t2d", "insulin", "blood sugar", "glucose monitor", "metformin", "a1c"], ["糖尿病", "血糖", "胰岛素"]),
    "asthma": (["asthma", "asthmatic", "inhaler", "asthma attack"], ["哮喘", "喷雾剂"]),
    "high blood pressure": (["high blood pressure", "hypertension", "blood pressure meds", "bp meds"], ["高血压", "降压药"]),
    "heart condition": (["heart disease", "heart attack", "heart condition", "arrhythmia", "pacemaker", "afib", "heart surgery", "stent"], ["心脏病", "心脏支架", "心律不齐"]),
    "high cholesterol": (["high cholesterol", "statins"], ["高血脂", "胆固醇高"]),
    "allergy": (["allergy", "allergies", "allergic", "epipen", "hay fever", "anaphylaxis"], ["过敏", "鼻炎"]),
    "migraine": (["migraine", "migraines"], ["偏头痛"]),
    "arthritis": (["arthritis", "rheumatoid", "gout"], ["关节炎", "痛风"]),
    "back pain": (["back pain", "herniated disc", "slipped disc", "sciatica"], ["腰痛", "腰椎间盘突出", "腰突", "颈椎病"]),
    "cancer": (["cancer", "chemo", "chemotherapy", "radiation therapy", "tumor", "tumour", "remission", "oncologist"], ["癌症", "化疗", "肿瘤", "放疗", "癌"]),
    "pregnancy": (["pregnant", "pregnancy", "trimester", "expecting a baby", "baby bump", "prenatal", "morning sickness", "weeks along"], ["怀孕", "孕期", "孕早期", "孕中期", "孕晚期", "产检", "孕吐", "待产", "备孕"]),
    "injury": (["broke my", "broken leg", "broken arm", "broken wrist", "torn acl", "acl", "sprained", "fracture", "fractured", "torn meniscus", "concussion", "stitches", "cast on"], ["骨折", "扭伤", "韧带撕裂", "打石膏", "缝针"]),
    "surgery": (["surgery", "operation", "post-op", "recovering from surgery", "knee replacement", "hip replacement"], ["手术", "开刀", "术后"]),
    "chronic illness": (["chronic illness", "chronic pain", "fibromyalgia", "lupus", "crohn's", "ibs", "celiac", "endometriosis", "pcos", "ms flare", "multiple sclerosis", "long covid", "chronic fatigue"], ["慢性病", "胃病", "胃炎", "肠胃炎", "甲状腺", "乳腺结节", "甲亢", "甲减", "多囊"]),
    "skin condition": (["eczema", "psoriasis", "acne", "rosacea"], ["湿疹", "痘痘", "痤疮", "银屑病"]),
    "epilepsy": (["epilepsy", "seizures", "seizure"], ["癫痫"]),
    "disability": (["wheelchair", "deaf", "hard of hearing", "hearing aid", "blind", "visually impaired", "amputee", "prosthetic"], ["轮椅", "残疾", "听障", "视障"]),
    "kidney disease": (["kidney disease", "dialysis", "kidney stones"], ["肾病", "透析", "肾结石"]),
    "covid": (["covid", "tested positive"], ["新冠", "阳了", "羊了"]),
    "cold or flu": (["the flu", "a cold", "fever", "sick with"], ["感冒", "发烧", "流感"]),
    "vision": (["nearsighted", "myopia", "lasik", "cataract"], ["近视", "白内障"]),
    "sleep apnea": (["sleep apnea", "cpap"], ["睡眠呼吸暂停"]),
    "tinnitus": (["tinnitus"], ["耳鸣"]),
    "menopause": (["menopause", "perimenopause", "hot flashes", "hot flushes"], ["更年期"]),
    "hair loss": (["hair loss", "balding"], ["脱发", "掉头发"]),
}
HEALTH_WEAK = {"acl", "operation", "cancer", "fever", "a cold", "the flu", "tumor", "blood sugar", "plants", "stitches",
               "血糖", "癌", "手术", "感冒", "发烧", "allergic", "seizure", "blind", "deaf", "tested positive", "acne"}

MENTAL: dict[str, tuple[list[str], list[str]]] = {
    "anxiety": (["anxiety", "anxious", "panic attack", "panic attacks", "panic disorder", "gad", "social anxiety", "overthinking"], ["焦虑", "惊恐发作", "社恐", "内耗", "精神内耗"]),
    "depression": (["depression", "depressed", "depressive", "antidepressant", "antidepressants", "ssri", "ssris", "sertraline", "zoloft", "prozac", "lexapro", "mdd"], ["抑郁", "抑郁症", "抗抑郁药", "emo", "丧"]),
    "therapy": (["therapy", "therapist", "counseling", "counselling", "counselor", "psychiatrist", "psychologist"], ["心理咨询", "心理医生", "咨询师", "看心理"]),
    "insomnia": (["insomnia", "can't sleep", "cannot sleep", "couldn't sleep", "sleepless", "melatonin", "sleeping pills"], ["失眠", "睡不着", "安眠药", "褪黑素"]),
    "burnout": (["burnout", "burned out", "burnt out", "exhausted from work", "overworked"], ["倦怠", "累瘫", "心累", "被掏空", "职业倦怠"]),
    "stress": (["stressed", "stressed out", "so much stress", "under a lot of pressure", "stress"], ["压力大", "压力好大"]),
    "adhd": (["adhd", "add", "adderall", "ritalin"], ["多动症"]),
    "ocd": (["ocd"], ["强迫症"]),
    "ptsd": (["ptsd", "trauma", "flashbacks"], ["创伤", "ptsd"]),
    "bipolar": (["bipolar"], ["双相", "躁郁"]),
    "eating disorder": (["eating disorder", "anorexia", "bulimia", "binge eating"], ["厌食症", "暴食"]),
    "loneliness": (["lonely", "loneliness", "isolated"], ["孤独", "寂寞"]),
    "grief": (["grieving", "grief"], ["悲伤"]),
    "autism": (["autistic", "autism", "on the spectrum", "asperger"], ["自闭症", "孤独症"]),
    "introvert": (["introvert", "introverted", "infj", "infp", "intj", "intp", "isfj", "isfp", "istj", "istp"], ["内向", "i人", "社恐人"]),
    "extrovert": (["extrovert", "extroverted", "enfp", "enfj", "entj", "entp", "esfj", "esfp", "estj", "estp"], ["外向", "e人", "社牛"]),
}
MENTAL_WEAK = {"stress", "trauma", "anxious", "lonely", "grief", "add", "丧", "emo", "崩溃", "破防", "overthinking", "isolated",
               "therapy", "内耗", "孤独"}

RELIGIONS: dict[str, tuple[list[str], list[str], str]] = {
    # canonical -> (EN cues, ZH cues, adjective/alias)
    "Christianity": (["christian", "church", "jesus", "bible study", "bible", "sunday service", "mass", "catholic", "protestant", "baptist",
                      "methodist", "lutheran", "pastor", "prayer group", "praise god", "god bless", "god is good", "god's creation", "god's love", "blessed by god", "in god's hands", "thank you jesus", "praise the lord", "amen", "small group", "lent", "easter service", "christ", "evangelical", "orthodox church"],
                     ["基督教", "基督徒", "教会", "礼拜天去教堂", "主日", "团契", "天主教", "弥撒", "主内", "感谢主", "受洗", "圣经", "做礼拜"], "Christian"),
    "Islam": (["muslim", "islam", "islamic", "mosque", "ramadan", "eid", "quran", "koran", "hajj", "umrah", "salah", "jummah", "iftar", "hijab", "inshallah", "alhamdulillah", "halal", "mashallah", "bismillah"],
              ["伊斯兰", "穆斯林", "清真寺", "斋月", "开斋节", "古兰经", "回族"], "Muslim"),
    "Judaism": (["jewish", "judaism", "synagogue", "shabbat", "sabbath", "passover", "seder", "hanukkah", "chanukah", "yom kippur", "rosh hashanah", "torah", "bar mitzvah", "bat mitzvah", "rabbi", "kosher"],
                ["犹太教", "犹太人", "犹太"], "Jewish"),
    "Hinduism": (["hindu", "hinduism", "diwali", "puja", "pooja", "holi", "navratri", "ganesh", "krishna", "shiva", "bhagavad gita", "mandir"],
                 ["印度教"], "Hindu"),
    "Buddhism": (["buddhist", "buddhism", "buddha", "dharma", "sangha", "monastery", "sutra", "vipassana", "zen buddhist"],
                 ["佛教", "佛教徒", "信佛", "念佛", "拜佛", "吃斋", "寺庙上香", "烧香拜佛", "佛系修行", "皈依", "诵经", "菩萨保佑"], "Buddhist"),
    "Shinto": (["shinto", "shrine visit", "kami", "omamori", "hatsumode"], ["神道"], "Shinto"),
    "Sikhism": (["sikh", "sikhism", "gurdwara", "waheguru"], ["锡克教"], "Sikh"),
    "Taoism": (["taoist", "taoism", "daoist"], ["道教", "道观"], "Taoist"),
    "atheist": (["atheist", "atheism", "don't believe in god", "not religious", "non-religious", "nonbeliever"], ["无神论", "不信教", "无宗教信仰"], "atheism"),
    "agnostic": (["agnostic", "agnosticism"], ["不可知论"], "agnosticism"),
}
RELIGION_WEAK = {"halal", "god's creation", "god's love", "blessed by god", "in god's hands", "church", "mass", "christ", "bible", "lent", "eid", "holi", "kosher", "hijab", "kami", "god bless", "holi",
                 "monastery", "buddha", "krishna", "shiva", "犹太", "ganesh", "sabbath", "inshallah"}

POLITICS: dict[str, tuple[list[str], list[str]]] = {
    "liberal": (["liberal", "progressive", "left-leaning", "leftist", "lefty", "democrat", "democratic party", "voted for biden", "voted for harris", "voted blue",
                 "labour voter", "voted labour", "labour", "democrats", "the greens", "lib dems", "support labour", "social democrat", "left wing", "left-wing", "feminist"], ["自由派", "左派", "白左"]),
    "conservative": (["conservative", "republican", "right-leaning", "right wing", "right-wing", "maga", "voted for trump", "voted red", "tory",
                      "voted conservative", "gop", "traditional values", "tories", "republicans", "the conservatives", "reform uk"], ["保守派", "右派"]),
    "socialist": (["socialist", "communist", "marxist", "democratic socialist"], ["社会主义者", "共产主义"]),
    "libertarian": (["libertarian"], ["自由意志主义"]),
    "green": (["green party", "voted green"], ["绿党"]),
    "centrist": (["centrist", "moderate", "independent voter", "swing voter"], ["中间派", "中立"]),
    "apolitical": (["apolitical", "not political", "don't care about politics"], ["不关心政治"]),
    "patriotic": ([], ["爱国", "小粉红"]),
}

ORIENTATION: dict[str, tuple[list[str], list[str]]] = {
    "gay": (["gay", "gay man", "homosexual", "queer man"], ["同性恋", "男同", "gay", "基佬", "弯的"]),
    "lesbian": (["lesbian", "sapphic", "wlw"], ["女同", "拉拉", "蕾丝"]),
    "bisexual": (["bisexual", "bi", "bi girl", "bi guy"], ["双性恋", "双性"]),
    "pansexual": (["pansexual", "pan"], ["泛性恋"]),
    "asexual": (["asexual", "ace"], ["无性恋"]),
    "queer": (["queer", "lgbtq", "lgbt"], ["酷儿"]),
    "heterosexual": (["straight", "heterosexual", "hetero"], ["异性恋", "直男", "直女"]),
}

EDU_LEVELS = [
    # canonical, EN regex, ZH terms
    ("PhD", r"ph\.?\s?d\.?|doctorate|doctoral\s+(?:student|candidate|degree)|dphil|doctor\s+of\s+philosophy", ["博士", "读博", "博士生", "博士学位"]),
    ("Master's degree", r"master'?s(?:\s+degree)?|masters|m\.?s\.?c\.?|m\.?a\.?\s+in|mba|m\.?eng|grad\s+school|graduate\s+degree|graduate\s+school|msw|llm", ["硕士", "研究生", "读研", "考研上岸", "硕士学位", "研一", "研二", "研三", "MBA"]),
    ("Bachelor's degree", r"bachelor'?s(?:\s+degree)?|bachelor\s+(?:thesis|degree|program(?:me)?|studies|in)|undergrad(?:uate)?\s+(?:thesis|studies)|b\.?s\.?c\.?|b\.?a\.?\s+in|b\.?eng|undergrad(?:uate)?\s+degree|college\s+degree|university\s+degree|four-year\s+degree|degree\s+in", ["本科", "学士", "大学毕业", "本科毕业", "大一", "大二", "大三", "大四"]),
    ("Associate degree", r"associate'?s?\s+degree|community\s+college|junior\s+college|two-year\s+degree|a\.?a\.?s?\s+degree", ["大专", "专科", "高职"]),
    ("High school", r"high\s+school\s+(?:diploma|graduate|grad|education|dropout)|college\s+dropout|dropped\s+out\s+of\s+(?:college|uni|university)|ged|only\s+finished\s+high\s+school|dropped\s+out\s+of\s+college|never\s+went\s+to\s+college|didn'?t\s+go\s+to\s+college", ["高中毕业", "高中学历", "中专", "职高"]),
    ("Primary school", r"only\s+(?:finished|went\s+to)\s+(?:primary|elementary|grade)\s+school|left\s+school\s+at\s+1[0-4]", ["小学毕业", "小学文化", "初中毕业", "初中学历"]),
    ("No schooling", r"never\s+went\s+to\s+school|no\s+formal\s+(?:schooling|education)|can'?t\s+read\s+or\s+write|self-taught\s+everything", ["没上过学", "文盲", "没读过书"]),
]
EDU_FIELDS_ZH = {
    "计算机": "Computer Science", "软件工程": "Software Engineering", "人工智能": "Artificial Intelligence", "金融": "Finance",
    "会计": "Accounting", "经济": "Economics", "法学": "Law", "法律": "Law", "临床医学": "Clinical Medicine", "医学": "Medicine",
    "护理": "Nursing", "英语": "English", "中文": "Chinese Literature", "汉语言文学": "Chinese Literature", "新闻": "Journalism",
    "数学": "Mathematics", "物理": "Physics", "化学": "Chemistry", "生物": "Biology", "心理学": "Psychology", "教育学": "Education",
    "机械": "Mechanical Engineering", "土木": "Civil Engineering", "电气": "Electrical Engineering", "建筑": "Architecture",
    "设计": "Design", "美术": "Fine Arts", "音乐": "Music", "历史": "History", "哲学": "Philosophy", "市场营销": "Marketing",
    "工商管理": "Business Administration", "统计": "Statistics", "药学": "Pharmacy", "日语": "Japanese", "社会学": "Sociology",
    "传媒": "Media Studies", "外语": "Foreign Languages", "电子": "Electronic Engineering", "通信": "Telecommunications",
}

# common short names of Chinese universities -> (full name, city)
UNI_ABBR_ZH = {
    "清华": ("清华大学", "Beijing"), "北大": ("北京大学", "Beijing"), "人大": ("中国人民大学", "Beijing"),
    "北师大": ("北京师范大学", "Beijing"), "北航": ("北京航空航天大学", "Beijing"), "北理工": ("北京理工大学", "Beijing"),
    "北邮": ("北京邮电大学", "Beijing"), "复旦": ("复旦大学", "Shanghai"), "上交": ("上海交通大学", "Shanghai"),
    "交大": ("上海交通大学", "Shanghai"), "同济": ("同济大学", "Shanghai"), "华师大": ("华东师范大学", "Shanghai"),
    "浙大": ("浙江大学", "Hangzhou"), "南大": ("南京大学", "Nanjing"), "东南": ("东南大学", "Nanjing"),
    "中大": ("中山大学", "Guangzhou"), "华工": ("华南理工大学", "Guangzhou"), "暨大": ("暨南大学", "Guangzhou"),
    "深大": ("深圳大学", "Shenzhen"), "南科大": ("南方科技大学", "Shenzhen"), "港大": ("香港大学", "Hong Kong"),
    "港中文": ("香港中文大学", "Hong Kong"), "港科大": ("香港科技大学", "Hong Kong"), "武大": ("武汉大学", "Wuhan"),
    "华科": ("华中科技大学", "Wuhan"), "川大": ("四川大学", "Chengdu"), "电子科大": ("电子科技大学", "Chengdu"),
    "西交": ("西安交通大学", "Xi'an"), "哈工大": ("哈尔滨工业大学", "Harbin"), "中科大": ("中国科学技术大学", "Hefei"),
    "厦大": ("厦门大学", "Xiamen"), "山大": ("山东大学", "Jinan"), "吉大": ("吉林大学", "Changchun"), "南开": ("南开大学", "Tianjin"),
    "天大": ("天津大学", "Tianjin"), "重大": ("重庆大学", "Chongqing"), "湖大": ("湖南大学", "Changsha"), "中南": ("中南大学", "Changsha"),
}

VENUE_TYPES: dict[str, tuple[list[str], list[str]]] = {
    "gym": (["gym", "fitness center", "crossfit box", "climbing gym"], ["健身房"]),
    "cafe": (["cafe", "café", "coffee shop", "starbucks", "coffeehouse"], ["咖啡店", "咖啡馆", "星巴克", "瑞幸"]),
    "library": (["library"], ["图书馆"]),
    "park": (["park"], ["公园"]),
    "bar": (["bar", "pub", "brewery", "wine bar"], ["酒吧", "清吧"]),
    "restaurant": (["restaurant", "diner", "noodle shop", "ramen shop", "pizzeria", "taqueria", "bistro"], ["餐厅", "饭馆", "面馆", "火锅店", "茶餐厅"]),
    "market": (["farmers market", "farmers' market", "market", "supermarket", "grocery store", "costco", "trader joe's", "whole foods"], ["菜市场", "超市", "市场", "山姆", "盒马", "菜场"]),
    "mall": (["mall", "shopping center"], ["商场", "购物中心", "万达", "万象城"]),
    "church": (["church", "mosque", "temple", "synagogue"], ["教堂", "寺庙", "清真寺"]),
    "pool": (["pool", "swimming pool", "aquatic center"], ["游泳馆", "游泳池"]),
    "studio": (["yoga studio", "dance studio", "pilates studio"], ["瑜伽馆", "舞蹈室", "练舞房"]),
    "bookstore": (["bookstore", "bookshop"], ["书店"]),
    "beach": (["beach"], ["海边", "沙滩"]),
    "club": (["chess club", "book club", "club"], ["俱乐部"]),
    "community center": (["community center", "community centre"], ["社区中心", "活动中心"]),
}
